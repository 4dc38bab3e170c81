// A second window on the same folder: a process of its own that writes a file and takes a
// checkpoint, over and over, through the same storage, and prints the ids as JSON at the end.
// Usage: node checkpointWindow.js <storage> <folder> <count> <tag>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/checkpoints/checkpoints';

const [storage, folder, count, tag] = process.argv.slice(2);

async function main(): Promise<void> {
  const cps = new Checkpoints({ storage: storage! });
  const ids: { id: string; file: string }[] = [];
  for (let i = 0; i < Number(count); i++) {
    const file = `${tag}-${i}.txt`;
    writeFileSync(join(folder!, file), `${tag} ${i}\n`);
    ids.push({ id: (await cps.checkpoint(folder!, `${tag} ${i}`, { sessionId: tag })).id, file });
  }
  process.stdout.write(JSON.stringify(ids) + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
