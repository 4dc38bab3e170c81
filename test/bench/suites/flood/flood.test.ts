// Benchmark 5, inside the extension host: the host's own memory while agents flood it. Each
// flood runs in a chat of its own; memory is sampled every 25 ms (the peak) and read again once
// the flood is over and the heap collected (what stays). Writes $ACP_BENCH_CTL/flood.json.
// Figures never fail this suite; only a broken flow does.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import { api } from '../../../vscode/support';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;

export interface Memory {
  /** heapUsed + external + arrayBuffers: what the host's JavaScript holds. */
  held: number;
  rss: number;
}

export interface FloodFigures {
  name: string;
  before: Memory;
  peak: Memory;
  after: Memory;
  ms: number;
  outcome: string;
}

export interface Results {
  floods: FloodFigures[];
  pingPong: { answeredPerSecond: number; notJson: number };
  guard?: { pid: number; rssKiB: number };
}

function memory(): Memory {
  const m = process.memoryUsage();
  return { held: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

function settled(): Memory {
  gc();
  gc();
  return memory();
}

/** Runs a flood while sampling memory, until `done` holds or `limitMs` passes. */
async function sampled(
  name: string,
  start: () => void,
  done: () => string | undefined,
  limitMs: number,
): Promise<FloodFigures> {
  const before = settled();
  const peak = { ...before };
  const started = performance.now();
  start();
  let outcome: string | undefined;
  while (!(outcome = done()) && performance.now() - started < limitMs) {
    const m = memory();
    peak.held = Math.max(peak.held, m.held);
    peak.rss = Math.max(peak.rss, m.rss);
    await sleep(25);
  }
  const ms = performance.now() - started;
  await sleep(200);
  return { name, before, peak, after: settled(), ms, outcome: outcome ?? `still going after ${limitMs / 1000} s` };
}

async function newChat(agentId: string): Promise<ChatPanel> {
  const a = await api();
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const chat = (await a.chats.open({ agentId, cwd: folder }, 'new'))!;
  const end = Date.now() + 60_000;
  while (!chat.session.capabilities().canPrompt) {
    if (Date.now() > end) throw new Error('the chat did not attach');
    await sleep(20);
  }
  return chat;
}

/** The extension host's guard process: its child running the watcher script. */
function guard(): { pid: number; rssKiB: number } | undefined {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const child of read(`/proc/${process.pid}/task/${task}/children`).trim().split(/\s+/).filter(Boolean)) {
      const cmdline = read(`/proc/${child}/cmdline`);
      if (!cmdline.startsWith('/bin/sh\0-c\0') || !cmdline.includes('groups=')) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${child}/status`))?.[1];
      return { pid: Number(child), rssKiB: Number(rss ?? 0) };
    }
  }
  return undefined;
}

describe('bench: the extension host while agents flood it', function () {
  this.timeout(600_000);

  it('measures', async () => {
    const a = await api();
    const main = a.agents.all[0]!.config.id;
    const text = a.agents.all[1]!.config.id;
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const file = join(folder, 'large.txt');
    writeFileSync(file, 'y'.repeat(10 * MiB));
    const floods: FloodFigures[] = [];
    const stoppedOrSaid = (chat: ChatPanel, said: RegExp) => () => {
      const status = chat.session.thread.status;
      if (status.state === 'disconnected')
        return `closed: ${status.message.replace(/^.*?stopped reading/, 'stopped reading')}`;
      const last = chat.session.thread.entries.at(-1);
      return last?.type === 'agent' && said.test(last.text) ? last.text : undefined;
    };

    const counts = (process.env.ACP_BENCH_FLOOD_READS ?? '60,200').split(',').map(Number);
    for (const count of counts) {
      const chat = await newChat(main);
      floods.push(
        await sampled(
          `stops reading, asks for a 10 MB file ${count} times`,
          () => void chat.session.prompt(`flood read ${file} ${count}`).catch(() => undefined),
          stoppedOrSaid(chat, /^$/),
          30_000,
        ),
      );
      chat.panel.dispose();
      await a.agents.get(main)!.restart();
    }

    {
      const chat = await newChat(main);
      floods.push(
        await sampled(
          'prints 1,000,000 lines that are not JSON (2 MB)',
          () => void chat.session.prompt('flood text 1000000').catch(() => undefined),
          stoppedOrSaid(chat, /Printed 1000000 lines/),
          60_000,
        ),
      );
      chat.panel.dispose();
    }

    {
      const chat = await newChat(main);
      const bytes = 20_000;
      const signal = join(process.env.ACP_BENCH_CTL!, 'unfinished');
      floods.push(
        await sampled(
          `holds a line of ${bytes.toLocaleString('en-US')} bytes written one byte at a time`,
          () => void chat.session.prompt(`unfinished ${bytes} ${signal}`).catch(() => undefined),
          () => (existsSync(signal) ? 'held' : undefined),
          180_000,
        ),
      );
      chat.panel.dispose();
      await a.agents.get(main)!.restart();
    }

    // An agent that prints text for every answer it gets: how often is it answered?
    const pingPong = await (async () => {
      const c = await a.agents.get(text)!.connect();
      const first = c.stats.notJson;
      await sleep(1000);
      return { answeredPerSecond: c.stats.notJson - first, notJson: c.stats.notJson };
    })();

    const results: Results = { floods, pingPong, guard: guard() };
    writeFileSync(join(process.env.ACP_BENCH_CTL!, 'flood.json'), JSON.stringify(results));
  });
});
