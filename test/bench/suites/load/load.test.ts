// Benchmark 4, the extension-host half: three agents, two folders, five chat panels in five
// editor groups (all visible, so all five webviews live). In the overlap a 20,000-update
// session/load replays into one panel while another streams a long reply; then each runs alone.
// Records when the host finished each and its event-loop delay, and checks that nothing was
// lost. Signals through files in $ACP_BENCH_CTL: plan.json (driver) → armed-P (here) →
// go-P (driver) → finished-P.json (here) → done-P (driver, once the webviews settled).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { Thread } from '../../../../src/chat/thread';
import type { AcpTestApi } from '../../../../src/extension';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import { longReply } from '../../../agent/replies';
import { PHASES, type LoadPlan, type Loop, type PanelPlan, type Phase, type PhaseResult } from '../../loadPlan';
import { api } from '../../../vscode/support';
import { writeSignal } from '../../signal';
import { waitFor } from '../../../support/wait';

const epoch = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Three groups above two: every panel visible at once. */
const LAYOUT = { orientation: 1, groups: [{ groups: [{}, {}, {}] }, { groups: [{}, {}] }] };
const FOCUS_GROUP = ['First', 'Second', 'Third', 'Fourth', 'Fifth'].map((n) => `workbench.action.focus${n}EditorGroup`);

function loop(h: IntervalHistogram): Loop {
  return { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6 };
}

/** Resolves when the thread satisfies `done`, checked at once and after each of its changes. */
function whenThread(thread: Thread, what: string, done: (t: Thread) => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (done(thread)) return resolve();
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const listener = thread.onDidChange(() => {
      if (!done(thread)) return;
      clearTimeout(timer);
      listener.dispose();
      resolve();
    });
  });
}

/** Opens a session's chat in its editor group with its history (what a Sessions view row does). */
async function open(a: AcpTestApi, p: PanelPlan): Promise<ChatPanel> {
  await vscode.commands.executeCommand(FOCUS_GROUP[p.group - 1]!);
  const chat = await a.chats.open({ agentId: p.agentId, sessionId: p.sessionId, cwd: p.cwd, title: p.title }, 'load');
  if (!chat) throw new Error(`no chat opened for ${p.agentId}/${p.sessionId}`);
  return chat;
}

async function opened(a: AcpTestApi, p: PanelPlan): Promise<ChatPanel> {
  const chat = await open(a, p);
  await whenThread(
    chat.session.thread,
    `${p.agentName}'s session to load`,
    (t) => t.status.state !== 'loading',
    120_000,
  );
  if (chat.session.thread.status.state !== 'idle')
    throw new Error(`${p.agentName}'s session ended ${chat.session.thread.status.state}`);
  return chat;
}

/** Counts a session's routed updates on its agent's connection; the agent must be running. */
function watch(a: AcpTestApi, agentId: string, sessionId: string) {
  const connection = a.agents.get(agentId)?.connection;
  if (!connection) throw new Error(`agent ${agentId} is not running`);
  const seen: { updates: number; firstAt?: number } = { updates: 0 };
  const listener = connection.router.onActivity((sid) => {
    if (sid !== sessionId) return;
    if (seen.updates++ === 0) seen.firstAt = epoch();
  });
  return { seen, dispose: () => listener.dispose() };
}

async function load(a: AcpTestApi, p: PanelPlan): Promise<NonNullable<PhaseResult['load']>> {
  const counter = watch(a, p.agentId, p.sessionId);
  try {
    const chat = await open(a, p);
    const thread = chat.session.thread;
    await whenThread(thread, 'the 20,000-update load', (t) => t.status.state !== 'loading', 600_000);
    const loadedAt = epoch();
    if (thread.status.state !== 'idle') throw new Error(`the load ended ${thread.status.state}`);
    return {
      firstUpdateAt: counter.seen.firstAt,
      loadedAt,
      updates: counter.seen.updates,
      entries: thread.entries.length,
    };
  } finally {
    counter.dispose();
  }
}

async function stream(a: AcpTestApi, p: PanelPlan, prompt: string): Promise<NonNullable<PhaseResult['stream']>> {
  const chat = a.chats.get(p.agentId, p.sessionId);
  if (!chat) throw new Error(`the chat of ${p.sessionId} is not open`);
  const thread = chat.session.thread;
  const before = thread.entries.length;
  const counter = watch(a, p.agentId, p.sessionId);
  try {
    // What the composer's sendPrompt request runs; the turn ends when the agent answers.
    await chat.session.prompt(prompt);
    const endedAt = epoch();
    const entryIndex = thread.entries.findIndex((e, i) => i >= before && e.type === 'agent');
    const entry = thread.entries[entryIndex];
    const text = entry?.type === 'agent' ? entry.text : '';
    return {
      firstChunkAt: counter.seen.firstAt,
      endedAt,
      updates: counter.seen.updates,
      entryIndex,
      chars: text.length,
      whole: text === longReply(),
    };
  } finally {
    counter.dispose();
  }
}

describe('bench: a load while another chat streams', function () {
  this.timeout(900_000);

  it('replays 20,000 updates in one panel while another streams a long reply, then each alone', async () => {
    const ctl = process.env.ACP_BENCH_CTL!;
    const signal = (name: string, body = '') => writeSignal(join(ctl, name), body);
    const signalled = (name: string, ms: number) =>
      waitFor(`the driver (${name})`, () => existsSync(join(ctl, name)), ms, 50);
    const a = await api();
    await signalled('plan.json', 60_000);
    const plan = JSON.parse(readFileSync(join(ctl, 'plan.json'), 'utf8')) as LoadPlan;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('vscode.setEditorLayout', LAYOUT);
    for (const p of plan.panels) await opened(a, p);

    const results = new Map<Phase, PhaseResult>();
    for (const phase of PHASES) {
      const streaming = phase === 'streamAlone' ? plan.streamAlone : plan.stream;
      if (phase === 'loadAlone') a.chats.get(plan.load.agentId, plan.load.sessionId)?.panel.dispose();
      if (phase === 'streamAlone') {
        a.chats.get(plan.stream.agentId, plan.stream.sessionId)?.panel.dispose();
        await opened(a, plan.streamAlone);
      }
      if (phase !== 'streamAlone') await vscode.commands.executeCommand(FOCUS_GROUP[plan.load.group - 1]!);
      // Closed panels' sessions close on the agents' side; let that and the webviews settle.
      await sleep(1500);
      signal(`armed-${phase}`);
      await signalled(`go-${phase}`, 120_000);
      const h = monitorEventLoopDelay({ resolution: 5 });
      h.enable();
      const startedAt = epoch();
      // The prompt first: its reply starts after a round trip, the replay at once.
      const [streamed, loaded] = await Promise.all([
        phase !== 'loadAlone' ? stream(a, streaming, plan.prompt) : undefined,
        phase !== 'streamAlone' ? load(a, plan.load) : undefined,
      ]);
      h.disable();
      const result: PhaseResult = {
        phase,
        startedAt,
        loop: loop(h),
        ...(loaded ? { load: loaded } : {}),
        ...(streamed ? { stream: streamed } : {}),
      };
      results.set(phase, result);
      signal(`finished-${phase}.json`, JSON.stringify(result));
      await signalled(`done-${phase}`, 600_000);
    }

    // Nothing lost: every update replayed, the same thread as alone, every character of the reply.
    const overlap = results.get('overlap')!;
    const alone = results.get('loadAlone')!;
    assert.equal(overlap.load?.updates, plan.loadUpdates, 'updates routed to the loading session during the overlap');
    assert.equal(alone.load?.updates, plan.loadUpdates, 'updates routed to the loading session alone');
    assert.equal(overlap.load?.entries, alone.load?.entries, 'entries of the replayed thread: overlapped and alone');
    assert.ok(
      overlap.stream?.whole,
      `the streamed reply arrived whole during the overlap (${overlap.stream?.chars} characters of ${longReply().length})`,
    );
    assert.ok(results.get('streamAlone')!.stream?.whole, 'the streamed reply arrived whole alone');
  });
});
