/**
 * Quote a selection into the composer: while text in the thread is selected, a small Quote
 * button sits at the end of the selection; it adds the text to the message being written as a
 * Markdown quote.
 */
import { bindAction } from './actions';
import { el, icon } from './dom';

export class QuoteButton {
  readonly element = bindAction(el('button', 'quote-button'), { kind: 'quoteSelection' });
  private pending = false;
  /**
   * The last look found text selected in the thread. Asking the selection lays the page out
   * first: a scroll (sixty a second while a reply streams) looks only when there is one.
   */
  private selecting = false;

  constructor(
    private readonly thread: HTMLElement,
    private readonly container: HTMLElement,
  ) {
    this.element.type = 'button';
    this.element.title = 'Quote the selection in your message';
    this.element.append(icon('quote'), el('span', undefined, 'Quote'));
    this.element.hidden = true;
    // Pressing the button must not clear the selection it quotes.
    this.element.addEventListener('mousedown', (event) => event.preventDefault());
    document.addEventListener('selectionchange', () => {
      if (this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => {
        this.pending = false;
        this.place();
      });
    });
    thread.addEventListener('scroll', () => this.selecting && this.place(), { passive: true });
  }

  /** The selected text in the thread, if any. */
  selectedText(): string | undefined {
    const selection = window.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return undefined;
    const range = selection.getRangeAt(0);
    if (!this.thread.contains(range.commonAncestorContainer)) return undefined;
    const text = selection.toString().trim();
    return text || undefined;
  }

  hide(): void {
    if (!this.element.hidden) this.element.hidden = true;
  }

  private place(): void {
    const text = this.selectedText();
    this.selecting = !!text;
    if (!text) {
      this.hide();
      return;
    }
    const range = window.getSelection()!.getRangeAt(0);
    const rects = range.getClientRects();
    const last = rects[rects.length - 1] ?? range.getBoundingClientRect();
    const box = this.container.getBoundingClientRect();
    const view = this.thread.getBoundingClientRect();
    if (last.bottom < view.top || last.top > view.bottom) {
      this.hide();
      return;
    }
    this.element.hidden = false;
    this.element.style.top = `${Math.min(last.bottom - box.top + 4, view.bottom - box.top - 28)}px`;
    this.element.style.left = `${Math.max(4, Math.min(last.right - box.left - 30, box.width - 90))}px`;
  }
}

/** Text as a Markdown quote, to go in a message. */
export function asQuote(text: string): string {
  return `${text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')}\n\n`;
}
