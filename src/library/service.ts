/**
 * The library for the extension's lifetime: started on first use (activation does no I/O),
 * stopped when `acp.library.enabled` is turned off, told when `acp.library.maxSizeMB` changes.
 * A library that failed (a newer extension's file, a disk that refuses) stays off for the
 * window, said once in the log; callers then go on without it.
 */
import type { IDisposable } from '../base/lifecycle';
import { Library } from './library';

export interface LibrarySettings {
  enabled: boolean;
  maxBytes: number;
}

export interface LibraryServiceOptions {
  workerPath: string;
  /** The extension's global storage directory. */
  dir: string;
  log: (message: string) => void;
  /** Told once, when the library could not start (the UI says so). */
  failed?: (message: string) => void;
  /** Told once a window, when the library could not save a change (the UI says so). */
  writeFailed?: (message: string) => void;
}

export class LibraryService implements IDisposable {
  private current: Library | undefined;
  private failed: string | undefined;
  /** Closed for good (the window is going): nothing starts the library again. */
  private closed = false;
  private toldWriteFailed = false;
  private settings: LibrarySettings = { enabled: true, maxBytes: 256 * 1024 * 1024 };

  constructor(private readonly opts: LibraryServiceOptions) {}

  get enabled(): boolean {
    return this.settings.enabled && this.failed === undefined && !this.closed;
  }

  /** Where the library's file lives (the extension's global storage). */
  get dir(): string {
    return this.opts.dir;
  }

  /** Why the library is off in this window, when it could not start. */
  get failure(): string | undefined {
    return this.failed;
  }

  /** Applies the settings; resolves once a library turned off has stopped. */
  configure(settings: LibrarySettings): Promise<void> {
    const before = this.settings;
    this.settings = settings;
    if (!settings.enabled) return this.stop();
    if (this.current && before.maxBytes !== settings.maxBytes)
      this.current.setMaxBytes(settings.maxBytes).catch((e: unknown) => this.opts.log(String(e)));
    return Promise.resolve();
  }

  /** The library, started on first use; undefined when it is off or could not start. */
  get(): Library | undefined {
    if (!this.enabled) return undefined;
    if (!this.current) {
      const library = new Library({
        workerPath: this.opts.workerPath,
        dir: this.opts.dir,
        maxBytes: this.settings.maxBytes,
        log: this.opts.log,
        // Once a window, however often the library is turned off and on again.
        writeFailed: (m) => {
          if (!this.toldWriteFailed) this.opts.writeFailed?.(m);
          this.toldWriteFailed = true;
        },
      });
      this.current = library;
      library.ready.catch((e: unknown) => {
        if (this.current !== library) return;
        this.current = undefined;
        this.failed = `The session library is off in this window: ${e instanceof Error ? e.message : String(e)}`;
        this.opts.log(this.failed);
        this.opts.failed?.(this.failed);
        void library.close();
      });
    }
    return this.current;
  }

  /** Forgets every kept session (starting the library to do so when it is not running). */
  async clear(): Promise<void> {
    const library = this.get();
    if (!library) throw new Error('The session library is turned off ("acp.library.enabled").');
    await library.clear();
  }

  private stop(): Promise<void> {
    const library = this.current;
    this.current = undefined;
    return library ? library.close() : Promise.resolve();
  }

  /**
   * Lets the worker finish what it was sent, then closes it for good: a write that comes later
   * (a chat torn down after this) starts no new library (deactivation waits for this).
   */
  close(): Promise<void> {
    this.closed = true;
    return this.stop();
  }

  dispose(): void {
    void this.stop();
  }
}
