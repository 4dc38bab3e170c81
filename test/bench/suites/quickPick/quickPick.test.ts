// Benchmark 3, inside the extension host: "ACP: Resume Session" over a folder of 10,000
// sessions, per keystroke too, and a refresh of the Sessions view over them. Writes its figures to $ACP_BENCH_CTL/quickPick.json for the driver (a timing never
// fails this suite; only a broken flow does).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import { api } from '../../../vscode/support';
import { writeSignal } from '../../signal';
import { keepNewest, measureRefresh, typeAndCount, TYPING_MS, type KeystrokeFigures } from './keystrokes';
import { waitFor } from '../../../support/wait';

/** Past this the search is reported as not found rather than waited for. */
const SEARCH_LIMIT_MS = 150_000;
const epoch = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Loop {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}

function loop(h: IntervalHistogram): Loop {
  return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6 };
}

/** Runs `fn` with the event-loop delay histogram on. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; loop: Loop; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const started = performance.now();
  try {
    const value = await fn();
    return { value, loop: loop(h), ms: performance.now() - started };
  } finally {
    h.disable();
  }
}

/** Opens the QuickPick; resolves when its first session rows are set. */
async function open(a: AcpTestApi) {
  const at = epoch();
  const started = performance.now();
  void vscode.commands.executeCommand('acp.resumeSession');
  const pick = await waitFor('the QuickPick', () => a.currentPick(), 120_000, 1);
  await waitFor('session rows', () => pick.quickPick.items.some((i) => i.row), 120_000, 1);
  return { pick, at, firstRowsMs: performance.now() - started, rows: pick.quickPick.items.filter((i) => i.row).length };
}

describe('bench: Resume Session QuickPick', function () {
  this.timeout(600_000);

  it('opens, pages in the background and finds a session on the last page', async () => {
    const ctl = process.env.ACP_BENCH_CTL!;
    const target = process.env.ACP_BENCH_TARGET_ID!;
    const a = await api();
    const out: Record<string, unknown> = {};

    // Cold: no agent running, nothing cached; then background paging up to the pick's limit.
    const cold = await measured(async () => {
      const o = await open(a);
      await o.pick.settled;
      return { ...o, paged: a.lists.all()[0]!.items.length };
    });
    out.cold = {
      at: cold.value.at,
      firstRowsMs: cold.value.firstRowsMs,
      rows: cold.value.rows,
      settledMs: cold.ms,
      paged: cold.value.paged,
      loop: cold.loop,
    };
    cold.value.pick.quickPick.hide();
    await sleep(1000);

    // Second open: the list is in memory; then type the id prefix of a session on the last page.
    const second = await open(a);
    // Typing starts a search only when no paging is under way.
    await second.pick.settled;
    const prefix = target.slice(0, 12);
    const search = await measured(async () => {
      // Typed in the workbench by the driver, as a person would: the QuickPick hears it as input.
      writeSignal(join(ctl, 'type.json'), JSON.stringify({ prefix }));
      await waitFor('the driver typing', () => existsSync(join(ctl, 'typed')), 30_000, 1);
      const typedAt = Number(readFileSync(join(ctl, 'typed'), 'utf8'));
      const started = performance.now() - (epoch() - typedAt);
      const progress = setInterval(
        () =>
          console.log(
            `ACP-BENCH searching: ${a.lists.all()[0]!.items.length} listed after ${((performance.now() - started) / 1000).toFixed(0)} s`,
          ),
        10_000,
      );
      let foundMs: number | undefined;
      try {
        await waitFor(
          'the session from the last page',
          () => second.pick.quickPick.items.some((i) => i.row?.sessionId === target),
          SEARCH_LIMIT_MS,
          1,
        );
        foundMs = performance.now() - started;
        await second.pick.settled;
      } catch {
        // Not found in time: that is the figure (reported as such), not a broken benchmark.
        const list = a.lists.all()[0]!;
        const why = list.error instanceof Error ? list.error.message : String(list.error);
        const qp = second.pick.quickPick;
        console.log(
          `ACP-BENCH not found: list state ${list.state}, cursor ${list.nextCursor ?? 'none'}, notice ${list.notice ?? 'none'}, error ${why}`,
        );
        console.log(
          `ACP-BENCH the list ${list.get(target) ? 'has' : 'lacks'} it; the QuickPick (${a.currentPick() === second.pick ? 'open' : 'closed'}, value "${qp.value}", busy ${qp.busy}) has ${qp.items.length} items`,
        );
      } finally {
        clearInterval(progress);
      }
      return { foundMs, listed: a.lists.all()[0]!.items.length };
    });
    out.second = { at: second.at, firstRowsMs: second.firstRowsMs, rows: second.rows };
    out.search = { prefix, foundMs: search.value.foundMs, listed: search.value.listed, loop: search.loop };
    second.pick.quickPick.hide();
    await sleep(500);

    // Per keystroke: the newest sessions kept in the library, then words typed a character at a time.
    const kept = await keepNewest(a);
    const third = await open(a);
    await third.pick.settled;
    const typing: KeystrokeFigures[] = [];
    for (const everyMs of TYPING_MS) typing.push({ ...(await typeAndCount(a, everyMs)), kept });
    out.keystrokes = typing;
    third.pick.quickPick.hide();
    await sleep(500);

    // The same background paging with the Sessions view visible: every page refreshes the view.
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await sleep(1500);
    await vscode.commands.executeCommand('acp.refreshSessions');
    await sleep(1000);
    const withView = await measured(async () => {
      const o = await open(a);
      await o.pick.settled;
      return { ...o, paged: a.lists.all()[0]!.items.length };
    });
    out.withView = {
      firstRowsMs: withView.value.firstRowsMs,
      settledMs: withView.ms,
      paged: withView.value.paged,
      loop: withView.loop,
    };
    withView.value.pick.quickPick.hide();
    // What each refresh of the view costs over the same rows, the view hidden so that only the
    // measured calls ask.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor('the view hidden', () => !a.view.visible, 30_000);
    out.refresh = await measureRefresh(a);

    writeFileSync(join(ctl, 'quickPick.json'), JSON.stringify(out, null, 2));
  });
});
