// Benchmark 11, the extension-host half of opening a search hit: for each session the driver
// names, the session is kept first (opened with its history, closed once the library holds it
// whole), then Resume Session is opened and the hit's words typed; the driver clicks the hit's
// row in the workbench and times the webview until the highlighted message is in view. Files in
// $ACP_BENCH_CTL carry the signals: targets.json (driver) → armed-N (here, with the hit) →
// click → pressed-N (driver) → done-N (driver) → result-N.json (here).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../../../src/extension';
import type { SearchScope } from '../../../../src/app/contentSearch';
import { api } from '../../../vscode/support';
import { writeSignal } from '../../signal';
import { waitFor } from '../../../support/wait';

export interface OpenTarget {
  sessionId: string;
  cwd: string;
  query: string;
  scope: SearchScope;
}

async function closeAll(a: AcpTestApi): Promise<void> {
  for (const chat of a.chats.all) chat.panel.dispose();
  await waitFor('no chats', () => a.chats.all.length === 0);
}

/** Opens the session with its history and waits until the library keeps it whole and current. */
async function keep(a: AcpTestApi, agentId: string, t: OpenTarget): Promise<number> {
  const chat = (await a.chats.open({ agentId, sessionId: t.sessionId, cwd: t.cwd }, 'load'))!;
  await waitFor(
    'the replay',
    () => chat.session.thread.status.state !== 'loading' && chat.session.thread.entries.length > 0,
    600_000,
    50,
  );
  const entries = chat.session.thread.entries.length;
  const host = a.agents.get(agentId)!;
  await waitFor(
    'the session kept, whole and current',
    async () => {
      const kept = await a.library.get()!.session({ agentId, sessionId: t.sessionId });
      const page = await (await host.connect()).listSessions({ cwd: t.cwd });
      const listed = page.sessions.find((s) => s.sessionId === t.sessionId);
      return kept?.complete && kept.entries === entries && listed && kept.updatedAt === listed.updatedAt;
    },
    120_000,
    100,
  );
  await closeAll(a);
  return entries;
}

describe('bench: open a search hit', function () {
  this.timeout(900_000);

  it('opens each hit scrolled to its message, highlighted', async () => {
    const ctl = process.env.ACP_BENCH_CTL!;
    const a = await api();
    await waitFor('the targets', () => existsSync(join(ctl, 'targets.json')), 60_000, 1);
    const targets = JSON.parse(readFileSync(join(ctl, 'targets.json'), 'utf8')) as OpenTarget[];
    const agentId = a.agents.all[0]!.config.id;
    const kept = new Map<string, number>();
    for (const t of targets) if (!kept.has(t.sessionId)) kept.set(t.sessionId, await keep(a, agentId, t));
    for (const [i, t] of targets.entries()) {
      const [hit] = await a.library.get()!.search(t.query, t.scope === 'window' ? { cwd: t.cwd } : {});
      if (hit?.sessionId !== t.sessionId || hit.entryIndex === undefined)
        throw new Error(`"${t.query}" did not find its session in the library (${JSON.stringify(hit)})`);
      void vscode.commands.executeCommand('acp.resumeSession');
      const pick = await waitFor('the QuickPick', () => a.currentPick(), 60_000);
      await pick.settled;
      pick.setScope(t.scope);
      pick.type(t.query);
      const row = (item: vscode.QuickPickItem & { row?: { sessionId: string } }) =>
        item.row?.sessionId === t.sessionId && !!item.detail?.includes(t.query);
      await waitFor('the hit in the QuickPick', () => pick.quickPick.items.find(row), 60_000);
      const steps: { step: string; at: number; detail?: string }[] = [];
      a.listenToSteps((step, at, detail) => steps.push({ step, at, ...(detail ? { detail } : {}) }));
      writeSignal(
        join(ctl, `armed-${i}`),
        JSON.stringify({ entryIndex: hit.entryIndex, entries: kept.get(t.sessionId) }),
      );
      await waitFor('the driver', () => existsSync(join(ctl, `pressed-${i}`)), 60_000, 5);
      const chat = await waitFor('the chat panel', () => a.chats.get(agentId, t.sessionId), 60_000, 5);
      await waitFor('the driver', () => existsSync(join(ctl, `done-${i}`)), 600_000, 20);
      writeSignal(
        join(ctl, `result-${i}.json`),
        JSON.stringify({
          entries: chat.session.thread.entries.length,
          status: chat.session.thread.status.state,
          steps,
        }),
      );
      a.listenToSteps(undefined);
      await closeAll(a);
    }
  });
});
