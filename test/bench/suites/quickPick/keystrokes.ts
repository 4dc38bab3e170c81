// Benchmark 3, per keystroke (imported by the driver too: no vscode here): what one typed character costs Resume Session over thousands of
// rows with kept sessions to search by content, and what one refresh of the Sessions view costs
// over the same list. Measured from outside the picker (its items as the workbench receives them,
// the library's searches as the worker receives them), so the figures mean the same whatever the
// picker does inside.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { AcpTestApi } from '../../../../src/extension';
import { chatTarget } from '../../../../src/chat/target';
import { median } from '../../lib';
import { waitFor } from '../../../support/wait';

/** Typed a character at a time: words of the seeded prompts ("…a retry with exponential backoff…"). */
export const TYPED = 'exponential backoff';
/** Between two keystrokes: a quick typist, and a burst (a held key, words typed ahead of the screen). */
export const TYPING_MS = [100, 10] as const;
/** Rows settled: no render for this long after the last keystroke. */
const SETTLED_MS = 1000;
/** The newest sessions kept in the library before typing. */
const KEPT = 40;

export interface KeystrokeFigures {
  /** Between two keystrokes. */
  everyMs: number;
  rows: number;
  kept: number;
  keystrokes: number;
  /** Times the picker handed the workbench its items while typing and until settled. */
  renders: number;
  /** Items handed over in those renders. */
  itemsSent: number;
  /** Host time spent in those renders (building and handing over the items). */
  renderMs: number;
  /** Searches the library's worker was asked for. */
  searches: number;
  /** The last keystroke until its search answered and its rows were shown. */
  settleMs: number;
  loop: { maxMs: number; p99Ms: number };
}

export interface RefreshFigures {
  rows: number;
  runs: number;
  /** getChildren() of the view's root, the list unchanged since the last call. */
  unchangedMs: number;
  /** getChildren() right after the list changed (a row's time moved). */
  changedMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Loads the newest sessions in the background, as indexing does, until the library keeps them whole. */
export async function keepNewest(a: AcpTestApi): Promise<number> {
  const list = a.lists.all()[0]!;
  const agentId = a.agents.all[0]!.config.id;
  const rows = list.items.slice(0, KEPT);
  for (const row of rows) await a.chats.loadInBackground(chatTarget(agentId, row));
  const client = a.library.get()!;
  for (const row of rows)
    await waitFor(
      'kept whole',
      async () => (await client.session({ agentId, sessionId: row.sessionId }))?.complete,
      120_000,
      1,
    );
  return rows.length;
}

/** Wraps a property's setter on one object, counting and timing what is set through it. */
function watchSetter<T extends object, V>(target: T, name: string, seen: (value: V, ms: number) => void): () => void {
  let proto: object | null = target;
  let desc: PropertyDescriptor | undefined;
  while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, name))) proto = Object.getPrototypeOf(proto);
  if (!desc?.set || !desc.get) throw new Error(`${name} is not an accessor`);
  const { get, set } = desc;
  Object.defineProperty(target, name, {
    configurable: true,
    get() {
      return get.call(this);
    },
    set(value: V) {
      const t0 = performance.now();
      set.call(this, value);
      seen(value, performance.now() - t0);
    },
  });
  return () => delete (target as Record<string, unknown>)[name];
}

/**
 * Types {@link TYPED} into an open, settled Resume Session, a character every `everyMs`, and
 * counts what the keystrokes cost; then clears what was typed.
 */
export async function typeAndCount(a: AcpTestApi, everyMs: number): Promise<KeystrokeFigures> {
  const pick = a.currentPick()!;
  const qp = pick.quickPick;
  const client = a.library.get()!;
  let renders = 0;
  let itemsSent = 0;
  let lastRender = performance.now();
  const unwatch = watchSetter<object, readonly unknown[]>(qp, 'items', (items) => {
    renders++;
    itemsSent += items.length;
    lastRender = performance.now();
  });
  // The host's time in each render, items built and handed over.
  const picker = pick as unknown as { render: (...args: unknown[]) => void };
  const render = picker.render;
  let renderMs = 0;
  picker.render = function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    try {
      return render.apply(this, args);
    } finally {
      renderMs += performance.now() - t0;
    }
  };
  let searches = 0;
  let lastAnswer = 0;
  const search = client.search;
  client.search = function (this: typeof client, ...args: Parameters<typeof client.search>) {
    searches++;
    const answer = search.apply(this, args);
    void answer.finally(() => (lastAnswer = performance.now())).catch(() => undefined);
    return answer;
  };
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  try {
    let typedAt = 0;
    for (let i = 1; i <= TYPED.length; i++) {
      if (i > 1) await sleep(everyMs);
      typedAt = performance.now();
      pick.type(TYPED.slice(0, i));
    }
    const hit = () => qp.items.some((item) => item.detail?.startsWith('$(search)'));
    await waitFor(
      'the content hits, then quiet',
      () => hit() && performance.now() - lastRender >= SETTLED_MS,
      60_000,
      1,
    );
    const figures = {
      everyMs,
      rows: qp.items.filter((i) => i.row).length,
      kept: 0,
      keystrokes: TYPED.length,
      renders,
      itemsSent,
      renderMs,
      searches,
      settleMs: Math.max(0, Math.max(lastRender, lastAnswer) - typedAt),
      loop: { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 },
    };
    pick.type('');
    await waitFor('the rows without hits', () => !hit(), 60_000, 1);
    return figures;
  } finally {
    h.disable();
    unwatch();
    picker.render = render;
    client.search = search;
  }
}

/**
 * The Sessions view's root children, asked for as each refresh asks: unchanged, then after a
 * change. Call it with the view hidden, so that only these calls ask.
 */
export async function measureRefresh(a: AcpTestApi, runs = 15): Promise<RefreshFigures> {
  const isSession = (n: { type: string }) => n.type === 'session';
  const rows = a.tree.getChildren().filter(isSession).length;
  const unchanged: number[] = [];
  const changed: number[] = [];
  const list = a.lists.all()[0]!;
  for (let run = 0; run < runs; run++) {
    let t0 = performance.now();
    a.tree.getChildren();
    unchanged.push(performance.now() - t0);
    // A row's time moves (as a chat's turn moves it): the view is told, then asks again.
    const row = list.items[run]!;
    list.applyInfoUpdate(row.sessionId, {
      updatedAt: new Date(Date.now() - run * 1000).toISOString(),
    });
    await sleep(0);
    t0 = performance.now();
    a.tree.getChildren();
    changed.push(performance.now() - t0);
  }
  return { rows, runs, unchangedMs: median(unchanged), changedMs: median(changed) };
}
