/**
 * Colours the fenced code of finished messages, off the rendering path. The highlighter is its
 * own bundle (dist/highlight.js), fetched the first time a block with a language is shown, so a
 * chat without code never loads it. Blocks are highlighted in the cached rendering of their
 * message (so each is done once), a few milliseconds of work per task, and the entry is then
 * rendered again from the cache. Unknown languages, unlabelled blocks and very long blocks stay
 * plain.
 */
import type { highlight as HighlightFn, registerSome as RegisterFn } from './codeHighlight';
import { codeLanguage, sanitizeHighlighted } from './markdown';

/** Longer blocks stay plain: highlighting them would be one long task. */
const MAX_CODE_CHARS = 20_000;
/** Work per task before yielding to input and rendering. */
const SLICE_MS = 8;

interface Job {
  source: DocumentFragment;
  done: () => void;
  /** Whether the rendering is still on screen; one that scrolled away is coloured when it is shown again. */
  wanted: () => boolean;
}

export class Highlighter {
  private readonly finished = new WeakSet<DocumentFragment>();
  private readonly queued = new Set<DocumentFragment>();
  private readonly jobs: Job[] = [];
  private loading: Promise<typeof HighlightFn | undefined> | undefined;
  private running = false;

  /** `url`: where the highlighter bundle is (beside the page's script). */
  constructor(private readonly url: string | undefined) {}

  /**
   * Highlights the code blocks of a cached rendering; `done` runs once they are coloured.
   * `wanted` says whether it is still shown (a replay renders entries that scroll past at once).
   */
  request(source: DocumentFragment, done: () => void, wanted: () => boolean = () => true): void {
    if (!this.url || this.finished.has(source) || this.queued.has(source)) return;
    if (!pending(source).length) {
      this.finished.add(source);
      return;
    }
    this.queued.add(source);
    this.jobs.push({ source, done, wanted });
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const highlight = await this.load();
      while (this.jobs.length) {
        await nextTask();
        const started = performance.now();
        while (this.jobs.length && performance.now() - started < SLICE_MS) {
          const job = this.jobs[0];
          if (!job.wanted()) {
            this.jobs.shift();
            this.queued.delete(job.source);
            continue;
          }
          const code = pending(job.source)[0];
          if (code && highlight) {
            colour(code, highlight);
            continue;
          }
          this.jobs.shift();
          this.queued.delete(job.source);
          this.finished.add(job.source);
          if (highlight) job.done();
        }
        // Timed in the page's performance timeline, where the benchmark reads it.
        performance.measure('acp-highlight', { start: started, duration: performance.now() - started });
      }
    } finally {
      this.running = false;
    }
  }

  private load(): Promise<typeof HighlightFn | undefined> {
    this.loading ??= (import(this.url!) as Promise<{ highlight: typeof HighlightFn; registerSome: typeof RegisterFn }>)
      .then(async (module) => {
        // Its languages, a slice of time per task (see codeHighlight.ts).
        while (!module.registerSome(SLICE_MS)) await nextTask();
        return module.highlight;
      })
      .catch((error: unknown) => {
        console.warn('acp webview: the code highlighter did not load', error);
        return undefined;
      });
    return this.loading;
  }
}

/** Code elements with a language that are not coloured yet. */
function pending(source: DocumentFragment): HTMLElement[] {
  return [...source.querySelectorAll<HTMLElement>('pre > code[class^="language-"]:not(.hljs)')];
}

function colour(code: HTMLElement, highlight: typeof HighlightFn): void {
  // Marked first: a block that cannot be coloured is not tried again.
  code.classList.add('hljs');
  const text = code.textContent ?? '';
  const language = codeLanguage(code);
  if (!language || text.length > MAX_CODE_CHARS) return;
  let html: string | undefined;
  try {
    html = highlight(text, language.toLowerCase());
  } catch {
    return;
  }
  if (html !== undefined) code.replaceChildren(sanitizeHighlighted(html));
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The highlighter bundle's address: beside the page's own script. */
export function highlighterUrl(): string | undefined {
  const script = document.currentScript as HTMLScriptElement | null;
  return script?.src ? new URL('highlight.js', script.src).href : undefined;
}
