// Injected into every frame before its scripts run (Playwright init script). It records, in
// epoch milliseconds so they compare with the extension host's clock on the same machine:
// - in the workbench: each time QuickPick rows appear (0 → some);
// - in the chat webview's inner frame: the first `.entry` inserted and painted, the time the
//   highest entry index first appeared, the first message carrying thread content, long tasks,
//   and when the find bar's current match (an opened search hit's words) was first in view.
// The webview host writes the chat's HTML with document.open(), which drops event listeners but
// keeps the window and observers: the message listener is (re)attached once #app exists.
// Self-contained: Playwright serialises this function's source.

export interface ProbeState {
  kind: 'workbench' | 'webview' | 'other';
  /** Injected after the frame had started (the init script did not reach it). */
  late?: boolean;
  /** `name` is the browser's attribution: 'self' for a task of this frame's own scripts. */
  longtasks: { start: number; duration: number; name?: string }[];
  quickRows: { at: number; rows: number }[];
  firstEntryInserted?: number;
  firstEntryPainted?: number;
  maxIndex: number;
  maxIndexAt?: number;
  firstContentMessage?: number;
  messages: number;
  loading: boolean;
  lastMutation?: number;
  /**
   * When a match of the find bar (an opened search hit's words, highlighted) was first seen
   * inside the viewport, in a frame's callback, and its text.
   */
  highlightAt?: number;
  highlightText?: string;
  /** When the find bar's current match (marked apart from the others) was first in view. */
  currentAt?: number;
  /**
   * When the host's first screen (the hit's message painted before the chat's script runs, its
   * words marked) was first seen with the current mark in view, in a frame's callback.
   */
  firstScreenAt?: number;
  firstScreenText?: string;
  /** The words were in view at the probe's first look: injected late, its times are upper bounds. */
  shownAtFirstLook?: boolean;
}

export function probe(): void {
  const w = window as unknown as { __acpBench?: ProbeState; top: unknown };
  if (w.__acpBench) return;
  const now = () => performance.timeOrigin + performance.now();
  const isTop = (window as unknown) === w.top;
  // A frame is the chat webview once the chat's #app is in it (its URL changes with document.open).
  const b: ProbeState = {
    kind: isTop ? 'workbench' : 'other',
    longtasks: [],
    quickRows: [],
    maxIndex: -1,
    messages: 0,
    loading: false,
  };
  w.__acpBench = b;
  const seenTasks = new Set<number>();
  const observeTasks = () => {
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (seenTasks.has(e.startTime)) continue;
          seenTasks.add(e.startTime);
          b.longtasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration, name: e.name });
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch {
      // No long-task timing in this browser: the figure reads n/a.
    }
  };
  observeTasks();
  let hooked: Document | undefined;
  let quickShown = 0;
  let watchingFirst = false;
  // While the find bar is open and its current match not yet seen, each frame looks for it.
  let watching = false;
  const inView = (range: Range | undefined) => {
    const rect = range?.getBoundingClientRect();
    return !!rect && rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight;
  };
  const watchHighlight = () => {
    if (watching || b.currentAt !== undefined) return;
    watching = true;
    let first = true;
    const look = () => {
      const current = CSS.highlights?.get('acp-find-current');
      const range = current ? ([...current][0] as Range | undefined) : undefined;
      if (b.highlightAt === undefined) {
        const all = CSS.highlights?.get('acp-find');
        const shown = range && inView(range) ? range : all ? ([...all] as Range[]).find(inView) : undefined;
        if (shown) {
          b.highlightAt = now();
          b.highlightText = shown.toString();
          b.shownAtFirstLook = first;
        }
      }
      first = false;
      if (range && inView(range)) {
        b.currentAt = now();
        watching = false;
        return;
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  };
  const onMutations = () => {
    if (isTop) {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const visible = !!widget && widget.style.display !== 'none' && widget.offsetParent !== null;
      const n = visible ? widget.querySelectorAll('.quick-input-list .monaco-list-row').length : 0;
      if (n > 0 !== quickShown > 0) b.quickRows.push({ at: now(), rows: n });
      quickShown = n;
      return;
    }
    if (!document.getElementById('app') && !document.getElementById('first-screen')) return;
    b.kind = 'webview';
    const firstMark = watchingFirst ? null : document.querySelector('#first-screen mark.current');
    if (firstMark) {
      watchingFirst = true;
      const look = () => {
        if (!firstMark.isConnected) return;
        const rect = firstMark.getBoundingClientRect();
        if (rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight) {
          b.firstScreenAt = now();
          b.firstScreenText = firstMark.textContent ?? '';
        } else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }
    b.lastMutation = now();
    if (hooked !== document) {
      hooked = document;
      observeTasks();
      window.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as
          { method?: string; params?: { thread?: { entries?: unknown[] }; changes?: unknown[] } } | undefined;
        if (!data || typeof data !== 'object') return;
        b.messages++;
        const content =
          (data.method === 'changed' && (data.params?.changes?.length ?? 0) > 0) ||
          (data.method === 'snapshot' && (data.params?.thread?.entries?.length ?? 0) > 0);
        if (content && b.firstContentMessage === undefined) b.firstContentMessage = now();
      });
    }
    // A stub holds an entry's place until the host sends it: not shown yet.
    const entries = document.querySelectorAll<HTMLElement>('.entry[data-index]:not(.entry-stub)');
    if (entries.length > 0 && b.firstEntryInserted === undefined) {
      const at = now();
      b.firstEntryInserted = at;
      // Painted: the frame that renders them has run (rAF), and the task after it.
      requestAnimationFrame(() => setTimeout(() => (b.firstEntryPainted = now()), 0));
    }
    // Rendered entries sit in index order; the last one holds the highest index.
    const last = entries[entries.length - 1];
    const index = last ? Number(last.dataset.index) : -1;
    if (index > b.maxIndex) {
      b.maxIndex = index;
      b.maxIndexAt = now();
    }
    b.loading = !!document.querySelector('.status-line.loading');
    if (document.querySelector('.find:not([hidden])')) watchHighlight();
  };
  onMutations();
  new MutationObserver(onMutations).observe(document, {
    childList: true,
    subtree: true,
    attributes: isTop,
    attributeFilter: isTop ? ['style'] : undefined,
  });
}
