/**
 * Where the window keeps small values and secrets, as the rooms below `ui` see them: VS Code's
 * `Memento` (workspace or global state) and `SecretStorage` fit these shapes, a map does in tests.
 */

/** Small values by key (a `Memento`). */
export interface ValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Secrets by key (`SecretStorage`). */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}
