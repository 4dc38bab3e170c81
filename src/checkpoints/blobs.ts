import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { ShadowGit } from './gitProcess';

/** What one `cat-file --batch` call reads at most, so a restore of many files holds little at once. */
const BATCH_BYTES = 32 * 1024 * 1024;

/** The sizes of blobs, from `cat-file --batch-check`. */
async function sizes(git: ShadowGit, blobs: readonly string[]): Promise<Map<string, number>> {
  const out = await git.text({ args: ['cat-file', '--batch-check'], input: `${blobs.join('\n')}\n` });
  const map = new Map<string, number>();
  for (const line of out.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid && type === 'blob') map.set(oid, Number(size));
  }
  return map;
}

/** Parses `cat-file --batch` output: `<oid> <type> <size>\n<bytes>\n` per object. */
export function parseBatch(out: Buffer): Map<string, Buffer> {
  const map = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [oid, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    if (type === 'missing' || !oid || size === undefined) {
      at = eol + 1;
      continue;
    }
    const n = Number(size);
    map.set(oid, out.subarray(eol + 1, eol + 1 + n));
    at = eol + 1 + n + 1;
  }
  return map;
}

/**
 * Reads blobs, calling `use` for each as it arrives, in batches of about {@link BATCH_BYTES}
 * (a larger blob alone). A blob the repository does not hold is not reported.
 */
export async function readBlobs(
  git: ShadowGit,
  blobs: readonly string[],
  use: (blob: string, bytes: Buffer) => Promise<void>,
): Promise<void> {
  const unique = [...new Set(blobs)];
  if (unique.length === 0) return;
  const known = await sizes(git, unique);
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const out = await git.run({ args: ['cat-file', '--batch'], input: `${batch.join('\n')}\n` });
    batch = [];
    bytes = 0;
    for (const [oid, content] of parseBatch(out.stdout)) await use(oid, content);
  };
  for (const b of unique) {
    const size = known.get(b);
    if (size === undefined) continue;
    if (bytes + size > BATCH_BYTES) await flush();
    batch.push(b);
    bytes += size;
  }
  await flush();
}

/** One blob's bytes. */
export async function readBlob(git: ShadowGit, blob: string): Promise<Buffer | undefined> {
  let found: Buffer | undefined;
  await readBlobs(git, [blob], async (_oid, bytes) => {
    found = bytes;
  });
  return found;
}

/**
 * Whether the file at `file` holds exactly the bytes of git blob `blob` (SHA-1 object ids, as
 * the checkpoint stores use): hashed here, no git runs. False for a missing or unreadable file.
 */
export async function fileMatchesBlob(file: string, blob: string): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(blob)) return false;
  const bytes = await fs.readFile(file).catch(() => undefined);
  if (!bytes) return false;
  const hash = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return hash === blob;
}
