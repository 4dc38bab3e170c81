import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { writeAtomic } from '../platform/atomicWrite';

/**
 * Objects for a git repository's object store, written as git writes loose objects: the header
 * `<type> <size>\0` and the bytes, named by the SHA-1 of both, compressed with zlib at level 1
 * (the shadow repositories' `core.looseCompression`). Only repositories with SHA-1 object ids:
 * the shadow repositories are made so. Each object's id is known as it is added; {@link flush}
 * writes them all at once.
 */
/** Object folders (`objects/ab`) made by this process: not made again on every snapshot. */
const made = new Set<string>();

export class LooseObjects {
  private readonly pending = new Map<string, Buffer>();

  constructor(private readonly objectsDir: string) {}

  /** Adds an object to write; returns its id. */
  add(type: 'blob' | 'tree', bytes: Buffer): string {
    const header = Buffer.from(`${type} ${bytes.length}\0`);
    const id = createHash('sha1').update(header).update(bytes).digest('hex');
    if (!this.pending.has(id)) this.pending.set(id, Buffer.concat([header, bytes]));
    return id;
  }

  /**
   * Writes every object added, side by side. Each is written whole under git's own temporary
   * name (removed after a full disk, as git's are), then renamed into place: a reader never sees
   * half an object, and an object already there is replaced by the same bytes.
   */
  async flush(): Promise<void> {
    const objects = [...this.pending];
    this.pending.clear();
    const dirs = [...new Set(objects.map(([id]) => path.join(this.objectsDir, id.slice(0, 2))))];
    await Promise.all(dirs.filter((d) => !made.has(d)).map((d) => makeDir(d)));
    await Promise.all(
      objects.map(async ([id, raw]) => {
        const dir = path.join(this.objectsDir, id.slice(0, 2));
        const file = path.join(dir, id.slice(2));
        const data = deflateSync(raw, { level: 1 });
        // Under git's own temporary name, which a full disk's clean-up knows.
        const write = () =>
          writeAtomic(file, data, { mode: 0o444, tempName: `tmp_obj_${randomBytes(6).toString('hex')}` });
        await write().catch(async (e: NodeJS.ErrnoException) => {
          // Git's pruning in another window removes an object folder it emptied.
          if (e.code !== 'ENOENT') throw e;
          await makeDir(dir);
          await write();
        });
      }),
    );
  }
}

async function makeDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  made.add(dir);
}
