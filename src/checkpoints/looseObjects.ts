import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';

/**
 * Objects for a git repository's object store, written as git writes loose objects: the header
 * `<type> <size>\0` and the bytes, named by the SHA-1 of both, compressed with zlib at level 1
 * (the shadow repositories' `core.looseCompression`). Only repositories with SHA-1 object ids:
 * the shadow repositories are made so. Each object's id is known as it is added; {@link flush}
 * writes them all at once.
 */
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
    const dirs = [...new Set(objects.map(([id]) => id.slice(0, 2)))];
    await Promise.all(dirs.map((d) => fs.mkdir(path.join(this.objectsDir, d), { recursive: true })));
    await Promise.all(
      objects.map(async ([id, raw]) => {
        const dir = path.join(this.objectsDir, id.slice(0, 2));
        const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
        try {
          await fs.writeFile(tmp, deflateSync(raw, { level: 1 }), { mode: 0o444 });
          await fs.rename(tmp, path.join(dir, id.slice(2)));
        } catch (e) {
          await fs.rm(tmp, { force: true });
          throw e;
        }
      }),
    );
  }
}
