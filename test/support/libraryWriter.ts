// A process that keeps sessions in a library as fast as it can, through the extension's own
// path (the Library front and its worker thread), and prints "ack <n>" once write n is
// stored. Tests kill it at any moment and check what the library kept.
// Usage: node libraryWriter.js <dir> <workerPath> <first write number>
import { writeSync } from 'node:fs';
import { Library } from '../../src/library/library';
import type { ThreadEntry } from '../../src/protocol/entries';

const [dir, workerPath, first] = process.argv.slice(2);
const library = new Library({ workerPath: workerPath!, dir: dir!, maxBytes: 1e9 });

/** Write n: session s<n % 7>, entries n*10 … n*10+9 with enough text to make a write take a while. */
export function writeOf(n: number) {
  const entries = Array.from({ length: 10 }, (_, i) => ({
    index: Math.floor(n / 7) * 10 + i,
    entry: {
      type: 'agent',
      text: `write ${n} entry ${i} marker${n}x ${'filler text for a longer entry '.repeat(60)}`,
      attachments: [],
      done: true,
    } as ThreadEntry,
  }));
  return { agentId: 'writer', sessionId: `s${n % 7}`, cwd: '/work/p', entries, info: { title: `after ${n}` } };
}

async function main(): Promise<void> {
  await library.ready;
  for (let n = Number(first); ; n++) {
    await library.write(writeOf(n));
    writeSync(1, `ack ${n}\n`);
  }
}

if (dir) void main();
