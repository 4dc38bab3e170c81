/** Something that holds a resource until `dispose()` is called. Shaped like `vscode.Disposable`. */
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Disposes each item, continuing past failures; rethrows the first failure at the end. */
export function disposeAll(items: Iterable<IDisposable>): void {
  let first: unknown;
  for (const item of items) {
    try {
      item.dispose();
    } catch (e) {
      first ??= e;
    }
  }
  if (first !== undefined) throw first;
}

/**
 * The owner of a set of lifetimes. Anything registered after the owner was disposed is
 * disposed at once, so a late async result cannot leak.
 */
export class Disposable implements IDisposable {
  private readonly store = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  register<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.store.add(item);
    }
    return item;
  }

  /** Forgets an item without disposing it (it was disposed elsewhere). */
  unregister(item: IDisposable): void {
    this.store.delete(item);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.store].reverse();
    this.store.clear();
    disposeAll(items);
  }
}

/** A slot for one current value: setting a new value disposes the old one. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      next?.dispose();
      return;
    }
    if (next === this.current) return;
    const old = this.current;
    this.current = next;
    old?.dispose();
  }

  /** Takes the value out without disposing it. */
  clearAndLeak(): T | undefined {
    const old = this.current;
    this.current = undefined;
    return old;
  }

  dispose(): void {
    this.disposed = true;
    const old = this.current;
    this.current = undefined;
    old?.dispose();
  }
}

/** Disposables keyed by id (one per session, one per panel…). */
export class DisposableMap<K, V extends IDisposable> implements IDisposable {
  private readonly map = new Map<K, V>();

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  get size(): number {
    return this.map.size;
  }

  /** Sets the value for a key, disposing the one it replaces. */
  set(key: K, value: V): void {
    const old = this.map.get(key);
    this.map.set(key, value);
    if (old && old !== value) old.dispose();
  }

  deleteAndDispose(key: K): void {
    const old = this.map.get(key);
    this.map.delete(key);
    old?.dispose();
  }

  /** Removes the entry without disposing it. */
  deleteAndLeak(key: K): V | undefined {
    const old = this.map.get(key);
    this.map.delete(key);
    return old;
  }

  dispose(): void {
    const items = [...this.map.values()];
    this.map.clear();
    disposeAll(items);
  }
}
