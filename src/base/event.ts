import type { IDisposable } from './lifecycle';

/** A subscription function, shaped like `vscode.Event` so models plug straight into the UI. */
export type Event<T> = (listener: (e: T) => void, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

/** Fires events to listeners. A listener that throws does not stop the others. */
export class Emitter<T> implements IDisposable {
  private listeners: Array<(e: T) => void> = [];
  private disposed = false;

  /** Reports listener failures; the owner may point it at its log. */
  onListenerError: (error: unknown) => void = (error) => console.error(error);

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    if (this.disposed) return { dispose() {} };
    this.listeners.push(bound);
    const subscription = {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== bound);
      },
    };
    disposables?.push(subscription);
    return subscription;
  };

  fire(e: T): void {
    for (const listener of this.listeners) {
      try {
        listener(e);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Resolves with the next event. */
export function once<T>(event: Event<T>): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((e) => {
      sub.dispose();
      resolve(e);
    });
  });
}
