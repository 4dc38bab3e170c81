/**
 * The virtualised thread: only the entries near the viewport are in the DOM, between two
 * spacers sized from a height index (measured heights where known, estimates elsewhere).
 * Per animation frame it reads the scroll position once and renders the range. Heights are
 * measured by a ResizeObserver, which reports after the frame's layout without forcing one; the
 * scroll position (the bottom while sticking, else the entry the user was reading) is set there
 * too, so a frame lays out once. Writing scrollTop right after DOM changes would force a second,
 * synchronous layout per frame.
 */
import { el } from './dom';
import { HeightIndex } from './heightIndex';

export interface ThreadViewSource {
  count(): number;
  render(index: number): HTMLElement;
  /** Brings a rendered node up to date in place; false when it must be rendered anew. */
  update(index: number, node: HTMLElement): boolean;
  estimate(index: number, charsPerLine: number): number;
}

/** Where the user is reading: an entry and the distance scrolled into it. */
export interface ScrollAnchor {
  index: number;
  within: number;
}

/** Enough for a tall window with overscan; a cap, not a target. */
const MAX_RENDERED = 150;
/** Slack for "at the bottom": sub-pixel rounding and zoom. */
const BOTTOM_SLACK = 8;

export class ThreadView {
  readonly element = el('div', 'thread');
  private readonly topSpacer = el('div', 'spacer');
  private readonly list = el('div', 'thread-list');
  private readonly bottomSpacer = el('div', 'spacer');
  private readonly heights = new HeightIndex();
  private readonly nodes = new Map<number, HTMLElement>();
  private readonly dirty = new Set<number>();
  private readonly observer = new ResizeObserver((records) => this.measure(records));
  private first = 0;
  private end = 0;
  private stick = true;
  /** A scroll event pending now is one we caused (until the next frame's callbacks). */
  private ownScroll = false;
  /** Where the last scroll event found the thread. */
  private lastTop = 0;
  private ownScrollToken = 0;
  private anchor: ScrollAnchor | undefined;
  private restore: ScrollAnchor | undefined;
  /** An entry to scroll to once it is there. */
  private revealing: number | undefined;
  /** Scroll in this frame even if no size changes (a jump or a restore). */
  private forceScroll = false;
  private cpl = 80;
  /**
   * The scroller's inner size, as the ResizeObserver last reported it (read where layout is
   * fresh). Read in the frame callback instead, it would lay out the page, and the workbench
   * around it, before this frame's changes are made.
   */
  private size: { height: number; width: number } | undefined;

  constructor(
    private readonly source: ThreadViewSource,
    private readonly schedule: () => void,
    private readonly onStickChanged: (stick: boolean) => void,
  ) {
    this.element.setAttribute('role', 'log');
    this.element.tabIndex = 0;
    this.element.append(this.topSpacer, this.list, this.bottomSpacer);
    // Any of these changing size moves content under the viewport: the scroll follows in
    // `measure`. The scroller itself changing size changes the range to render.
    for (const node of [this.element, this.topSpacer, this.list, this.bottomSpacer]) this.observer.observe(node);
    this.element.addEventListener('scroll', () => this.scrolled(), { passive: true });
    // Scrolling up is an intent to read: stop following at once, even mid-stream.
    this.element.addEventListener('wheel', (event) => event.deltaY < 0 && this.setStick(false), { passive: true });
  }

  get sticking(): boolean {
    return this.stick;
  }

  /** About how many characters fit on a line of the thread (for estimated heights). */
  get charsPerLine(): number {
    return this.cpl;
  }

  /** The entries in the DOM, `from` to `to` exclusive. */
  get rendered(): { from: number; to: number } {
    return { from: this.first, to: this.end };
  }

  /** The rendered node of an entry, if it is in the DOM. */
  nodeOf(index: number): HTMLElement | undefined {
    return this.nodes.get(index);
  }

  /** Drops everything for a new snapshot; `restore` puts the user back where they were. */
  reset(restore?: ScrollAnchor): void {
    for (const node of this.nodes.values()) this.observer.unobserve(node);
    this.nodes.clear();
    this.list.replaceChildren();
    this.dirty.clear();
    this.heights.clear();
    this.first = this.end = 0;
    this.anchor = undefined;
    this.restore = restore;
    this.forceScroll = true;
    this.setStick(restore === undefined);
    this.appended();
  }

  /** Entries were appended to the source. */
  appended(): void {
    for (let index = this.heights.length; index < this.source.count(); index++) {
      this.heights.push(this.source.estimate(index, this.cpl));
    }
    if (this.revealing !== undefined && this.revealing < this.heights.length) {
      this.reveal(this.revealing);
      this.revealing = undefined;
    }
  }

  /** Scrolls to the entry at `index` now, or once it has arrived. */
  revealWhenThere(index: number): void {
    this.revealing = index;
    this.appended();
  }

  /** An entry's content changed. */
  changed(index: number): void {
    if (index >= this.heights.length) return;
    if (this.nodes.has(index)) this.dirty.add(index);
    else this.heights.set(index, this.source.estimate(index, this.cpl));
  }

  /** Scrolls so that `within` pixels into the entry at `index` is at the top (it may be negative). */
  reveal(index: number, within = 0): void {
    if (index >= this.heights.length) return;
    this.setStick(false);
    this.restore = { index, within };
    this.forceScroll = true;
    this.schedule();
  }

  scrollToBottom(): void {
    this.setStick(true);
    this.forceScroll = true;
    this.schedule();
  }

  /** The entry at the top of the viewport. */
  firstVisible(): number {
    return this.heights.length ? this.heights.indexAt(this.element.scrollTop) : 0;
  }

  /** The entry at the top of the viewport, for the saved UI state; undefined while sticking. */
  currentAnchor(): ScrollAnchor | undefined {
    return this.stick ? undefined : this.anchor;
  }

  /**
   * Renders the range around the viewport. Call once per animation frame. `lean`: a replay the
   * view follows, whose next repaint replaces every entry: nothing is rendered ahead of the
   * viewport (the next repaint that is not lean renders it).
   */
  frame(lean = false): void {
    const scroller = this.element;
    // Until the observer first reports (the first frame), the size is read once.
    this.size ??= { height: scroller.clientHeight, width: scroller.clientWidth };
    const viewport = this.size.height;
    this.cpl = Math.max(20, Math.floor((this.size.width - 48) / 7.5));
    const count = this.heights.length;
    const total = this.heights.total;
    const overscan = lean ? 0 : Math.max(400, viewport);
    // A thread that fits has no "scrolled up": follow it again.
    if (total <= viewport) this.setStick(true);

    if (this.restore) {
      this.anchor = { index: Math.min(this.restore.index, Math.max(0, count - 1)), within: this.restore.within };
      this.restore = undefined;
    } else if (!this.stick) {
      const index = this.heights.indexAt(scroller.scrollTop);
      this.anchor = { index, within: scroller.scrollTop - this.heights.offsetOf(index) };
    }
    const top =
      this.stick || !this.anchor
        ? Math.max(0, total - viewport)
        : this.heights.offsetOf(this.anchor.index) + this.anchor.within;
    let from = count ? this.heights.indexAt(Math.max(0, top - overscan)) : 0;
    let to = this.stick ? count : Math.min(count, this.heights.indexAt(top + viewport + overscan) + 1);
    if (to - from > MAX_RENDERED) {
      if (this.stick) from = to - MAX_RENDERED;
      else to = from + MAX_RENDERED;
    }
    this.renderRange(from, to);
    this.topSpacer.style.height = `${this.heights.offsetOf(from)}px`;
    this.bottomSpacer.style.height = `${total - this.heights.offsetOf(to)}px`;
    if (this.forceScroll) {
      this.forceScroll = false;
      this.scrollIntoPlace();
    }
  }

  private renderRange(from: number, to: number): void {
    for (const [index, node] of this.nodes) {
      if (index < from || index >= to) {
        this.observer.unobserve(node);
        node.remove();
        this.nodes.delete(index);
      }
    }
    for (const index of this.dirty) {
      const node = this.nodes.get(index);
      if (node && !this.source.update(index, node)) {
        const fresh = this.source.render(index);
        node.replaceWith(fresh);
        this.observer.unobserve(node);
        this.observer.observe(fresh);
        this.nodes.set(index, fresh);
      }
    }
    this.dirty.clear();
    const keptFirst = Math.max(from, this.first);
    const keptEnd = Math.min(to, this.end);
    const kept = keptFirst < keptEnd;
    const before = document.createDocumentFragment();
    for (let index = from; index < (kept ? keptFirst : to); index++) before.append(this.create(index));
    const after = document.createDocumentFragment();
    for (let index = kept ? keptEnd : to; index < to; index++) after.append(this.create(index));
    this.list.prepend(before);
    this.list.append(after);
    this.first = from;
    this.end = to;
  }

  private create(index: number): HTMLElement {
    const node = this.source.render(index);
    this.nodes.set(index, node);
    this.observer.observe(node);
    return node;
  }

  private scrollIntoPlace(): void {
    // A value past the end is clamped by the browser: no scrollHeight read needed.
    if (this.stick) this.scrollTo(Number.MAX_SAFE_INTEGER);
    else if (this.anchor) this.scrollTo(this.heights.offsetOf(this.anchor.index) + this.anchor.within);
  }

  private measure(records: ResizeObserverEntry[]): void {
    let changed = false;
    for (const record of records) {
      const node = record.target as HTMLElement;
      if (node.dataset.index === undefined) {
        if (node === this.element) this.size = { height: node.clientHeight, width: node.clientWidth };
        changed = true;
        continue;
      }
      const index = Number(node.dataset.index);
      if (this.nodes.get(index) !== node) continue;
      const height = record.borderBoxSize?.[0]?.blockSize ?? node.offsetHeight;
      if (Math.abs(this.heights.heightOf(index) - height) > 0.5) {
        this.heights.set(index, height);
        changed = true;
      }
    }
    if (!changed) return;
    // Rendered nodes sit in normal flow, so only the scroll position needs to follow (layout is
    // fresh here: this write costs no extra layout); the range may now fall short of the
    // viewport, so look again next frame.
    this.scrollIntoPlace();
    this.schedule();
  }

  private scrolled(): void {
    const scroller = this.element;
    const top = scroller.scrollTop;
    const atBottom = top + (this.size?.height ?? scroller.clientHeight) >= scroller.scrollHeight - BOTTOM_SLACK;
    // Our own scroll to the bottom short of it means entries made the page taller between the
    // write and its event (a frame later): still following. Any other scroll short of the
    // bottom is the reader's (keys, the scrollbar, find in page); so is one that went up while
    // following, even in the gap after our own write (the view only scrolls down to follow).
    const up = top < this.lastTop - 1;
    this.lastTop = top;
    if (atBottom) this.setStick(true);
    else if (!this.ownScroll || up) this.setStick(false);
    this.schedule();
  }

  /** Writes the scroll position; the scroll event it causes comes before the next frame's callbacks. */
  private scrollTo(top: number): void {
    this.element.scrollTop = top;
    this.ownScroll = true;
    const token = ++this.ownScrollToken;
    requestAnimationFrame(() => {
      if (token === this.ownScrollToken) this.ownScroll = false;
    });
  }

  private setStick(stick: boolean): void {
    if (stick === this.stick) return;
    this.stick = stick;
    this.onStickChanged(stick);
  }
}
