/**
 * Find in the chat (Ctrl+F / Cmd+F): a bar over the thread that searches every entry, not only
 * those on screen (see threadSearch.ts), shows "3 of 120", steps with Enter and Shift+Enter (and
 * the arrows), scrolls each match into view and highlights it, and closes with Escape. Matches
 * are painted with the CSS Custom Highlight API: the rendered entries are not changed.
 */
import type { PanelEntry } from '../protocol/entries';
import { bindAction } from './actions';
import { el, icon } from './dom';
import { MAX_MATCHES, rangesIn, searchableText, searchThread, type Match } from './threadSearch';
import type { ThreadView } from './threadView';
import { findQuery } from '../protocol/findQuery';

export interface FindHost {
  entries(): readonly PanelEntry[];
  view: ThreadView;
  /** Makes sure a match inside the entry can be seen (opens a collapsed thought). */
  expand(index: number): void;
  /** The bar closed: focus goes back to where the user types. */
  closed(): void;
}

/** Search again this long after the thread changed while the bar is open. */
const RESEARCH_MS = 300;

export class FindBar {
  readonly element = el('div', 'find');
  private readonly input = el('input', 'find-input');
  private readonly count = el('span', 'find-count');
  private matches: Match[] = [];
  private current = -1;
  private stale: ReturnType<typeof setTimeout> | undefined;
  /** A match is being scrolled to: the current one is painted once it is in place. */
  private revealing = false;

  constructor(private readonly host: FindHost) {
    this.element.hidden = true;
    this.element.setAttribute('role', 'search');
    this.input.type = 'text';
    this.input.placeholder = 'Find in chat';
    this.input.setAttribute('aria-label', 'Find in chat');
    this.count.setAttribute('aria-live', 'polite');
    this.element.append(
      this.input,
      this.count,
      button('arrow-up', 'Previous match (Shift+Enter)', { kind: 'findStep', step: -1 }),
      button('arrow-down', 'Next match (Enter)', { kind: 'findStep', step: 1 }),
      button('close', 'Close (Escape)', { kind: 'findClose' }),
    );
    this.input.addEventListener('input', () => this.search(true));
    this.input.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === 'Enter' || event.key === 'F3') {
        event.preventDefault();
        this.step(event.shiftKey ? -1 : 1);
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.step(event.key === 'ArrowDown' ? 1 : -1);
      }
    });
    // Escape anywhere in the bar closes it, and must not also stop the turn.
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      this.close();
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens the bar (or focuses it), with the page's selection as the query when there is one. */
  open(): void {
    const selected = window.getSelection()?.toString().trim();
    this.element.hidden = false;
    if (selected && !selected.includes('\n') && selected.length <= 200) {
      this.input.value = selected;
      this.search(true);
    }
    this.input.focus();
    this.input.select();
    if (!selected) this.search(false);
  }

  /**
   * Opens the bar on a search hit: finds the words the hit matched (all of them as typed, when
   * the entry holds them so; else the first it holds) and shows the first match from `index` on.
   * The focus stays where it is.
   */
  showAt(index: number, words: readonly string[], settled?: () => void): void {
    const entry = this.host.entries()[index];
    this.input.value = findQuery(entry ? searchableText(entry) : '', words) || (words[0] ?? '');
    this.element.hidden = false;
    this.matches = searchThread(this.host.entries(), this.input.value);
    const at = this.matches.findIndex((m) => m.index >= index);
    this.current = this.matches.length ? (at === -1 ? 0 : at) : -1;
    this.showCount();
    if (this.current >= 0) this.reveal(this.matches[this.current], settled);
    else settled?.();
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.matches = [];
    this.current = -1;
    clearTimeout(this.stale);
    CSS.highlights?.delete('acp-find');
    CSS.highlights?.delete('acp-find-current');
    this.host.closed();
  }

  step(by: 1 | -1): void {
    if (!this.matches.length) return;
    this.current = (this.current + by + this.matches.length) % this.matches.length;
    this.showCount();
    this.reveal(this.matches[this.current]);
  }

  /** The thread changed while the bar is open: search again a little later, keeping the place. */
  threadChanged(): void {
    if (!this.isOpen || this.stale) return;
    this.stale = setTimeout(() => {
      this.stale = undefined;
      if (this.isOpen) this.search(false);
    }, RESEARCH_MS);
  }

  /** Paints the matches in the rendered entries; the view calls this after each render. */
  paint(): void {
    if (!this.isOpen || typeof Highlight === 'undefined' || !CSS.highlights) return;
    const query = this.input.value;
    const all: Range[] = [];
    let current: Range | undefined;
    const match = this.matches[this.current];
    const list = this.host.view.element.querySelectorAll<HTMLElement>('.entry[data-index]');
    for (const node of list) {
      const ranges = rangesIn(node, query);
      all.push(...ranges);
      if (match && Number(node.dataset.index) === match.index)
        current = ranges[Math.min(match.occurrence, ranges.length - 1)];
    }
    CSS.highlights.set('acp-find', new Highlight(...all));
    if (current && !this.revealing) CSS.highlights.set('acp-find-current', new Highlight(current));
    else CSS.highlights.delete('acp-find-current');
  }

  /** `jump`: a new query moves to the first match at or after where the reader is. */
  private search(jump: boolean): void {
    const started = performance.now();
    const previous = this.matches[this.current];
    this.matches = searchThread(this.host.entries(), this.input.value);
    // Timed in the page's performance timeline, where the benchmark reads it.
    performance.measure('acp-find', { start: started, duration: performance.now() - started });
    this.revealing = false;
    if (!this.matches.length) this.current = -1;
    else if (jump) {
      const from = this.host.view.firstVisible();
      const at = this.matches.findIndex((m) => m.index >= from);
      this.current = at === -1 ? 0 : at;
    } else if (previous) {
      const at = this.matches.findIndex(
        (m) => m.index > previous.index || (m.index === previous.index && m.occurrence >= previous.occurrence),
      );
      this.current = at === -1 ? this.matches.length - 1 : at;
    } else this.current = -1;
    this.showCount();
    if (jump && this.current >= 0) this.reveal(this.matches[this.current]);
    else this.paint();
  }

  private showCount(): void {
    const n = this.matches.length;
    const total = n >= MAX_MATCHES ? `${MAX_MATCHES.toLocaleString()}+` : n.toLocaleString();
    this.count.textContent = !this.input.value
      ? ''
      : n === 0
        ? 'No results'
        : `${this.current >= 0 ? (this.current + 1).toLocaleString() : '?'} of ${total}`;
    this.element.classList.toggle('no-results', !!this.input.value && n === 0);
  }

  /**
   * Brings a match into view: its entry first, then (once rendered) the match itself, a third
   * down. `settled`: told once the match is in place and painted (or another took its place).
   */
  private reveal(match: Match, settled?: () => void): void {
    // The current match is painted again once it is in view.
    CSS.highlights?.delete('acp-find-current');
    this.revealing = true;
    this.host.expand(match.index);
    const view = this.host.view;
    view.reveal(match.index);
    afterFrames(2, () => {
      if (this.matches[this.current] !== match) return settled?.();
      const node = view.nodeOf(match.index);
      const ranges = node ? rangesIn(node, this.input.value) : [];
      const range = ranges[Math.min(match.occurrence, ranges.length - 1)];
      if (node && range) {
        const offset = range.getBoundingClientRect().top - node.getBoundingClientRect().top;
        view.reveal(match.index, offset - view.element.clientHeight / 3);
      }
      afterFrames(2, () => {
        this.revealing = false;
        this.paint();
        settled?.();
      });
    });
  }
}

function afterFrames(n: number, run: () => void): void {
  requestAnimationFrame(() => (n > 1 ? afterFrames(n - 1, run) : run()));
}

function button(name: string, label: string, action: Parameters<typeof bindAction>[1]): HTMLButtonElement {
  const node = bindAction(el('button', `icon-button find-${name}`), action);
  node.type = 'button';
  node.title = label;
  node.setAttribute('aria-label', label);
  node.append(icon(name));
  return node;
}

/**
 * Ctrl+F / Cmd+F finds in the whole thread. Caught first (capture), so the webview's host does
 * not pass it on to the workbench, whose find cannot see the entries not rendered.
 */
export function listenForFindKey(open: () => void): void {
  window.addEventListener(
    'keydown',
    (event) => {
      const mod = event.ctrlKey !== event.metaKey && (event.ctrlKey || event.metaKey);
      if (!mod || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'f') return;
      event.preventDefault();
      event.stopPropagation();
      open();
    },
    true,
  );
}
