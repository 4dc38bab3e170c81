// Writer processes of the library's tests (test/support/libraryWriter.ts), started and read:
// which writes they acknowledged, and where one said it was when it killed itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { WriterArgs } from './libraryWriter';
import { repoRoot } from './refAgent';

const writer = join(repoRoot, 'out/test/support/libraryWriter.js');

export interface Writer {
  child: ChildProcess;
  acks: Array<{ n: number; pages: number }>;
  /** Where the writer said it was when it killed itself. */
  dying?: 'commit' | 'checkpoint';
  ready: Promise<void>;
  ended: Promise<NodeJS.Signals | number | null>;
}

/** Starts a writer on `node`; a victim that acknowledges a fourth write is killed there (between writes). */
export function startWriter(node: string, args: WriterArgs): Writer {
  // Liftoff only: the WebAssembly compile a round pays for stays small.
  const child = spawn(node, ['--no-wasm-tier-up', '--enable-source-maps', writer, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acks: Writer['acks'] = [];
  let buffer = '';
  let ready: () => void = () => {};
  const w: Writer = {
    child,
    acks,
    ready: new Promise<void>((r) => (ready = r)),
    ended: new Promise((resolve, reject) => {
      child.on('error', reject);
      // 'close', not 'exit': the process can exit before its last lines (an acknowledgement
      // among them) are read from its output, and a write it acknowledged would go uncounted.
      child.on('close', (code, signal) => resolve(signal ?? code));
    }),
  };
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const l of lines) {
      if (l === 'ready') ready();
      const dying = /^dying in (commit|checkpoint)$/.exec(l);
      if (dying) w.dying = dying[1] as Writer['dying'];
      const m = /^ack (\d+) (\d+)$/.exec(l);
      if (m) acks.push({ n: Number(m[1]), pages: Number(m[2]) });
      // A kill point past two writes: end it here (counted as a kill between writes).
      if (args.role === 'victim' && acks.length > 3) child.kill('SIGKILL');
    }
  });
  return w;
}
