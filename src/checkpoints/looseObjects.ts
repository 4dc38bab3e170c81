import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';

/**
 * Writes objects into a git repository's object store as git writes loose objects: the
 * header `<type> <size>\0` and the bytes, named by the SHA-1 of both, compressed with zlib at
 * level 1 (the shadow repositories' `core.looseCompression`). Only repositories with SHA-1
 * object ids: the shadow repositories are made so.
 */
export class LooseObjects {
  constructor(private readonly objectsDir: string) {}

  /** The object id of `bytes` as a `type` object. */
  static id(type: 'blob' | 'tree', bytes: Buffer): string {
    return createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
  }

  /** Writes the object unless the store has it; returns its id. */
  async write(type: 'blob' | 'tree', bytes: Buffer): Promise<string> {
    const id = LooseObjects.id(type, bytes);
    const dir = path.join(this.objectsDir, id.slice(0, 2));
    const file = path.join(dir, id.slice(2));
    if (
      await fs.access(file).then(
        () => true,
        () => false,
      )
    )
      return id;
    const data = deflateSync(Buffer.concat([Buffer.from(`${type} ${bytes.length}\0`), bytes]), { level: 1 });
    await fs.mkdir(dir, { recursive: true });
    // Written whole under git's own temporary name (removed after a full disk, as git's are),
    // then renamed into place: a reader never sees half an object, and two writers write the
    // same bytes.
    const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
    try {
      await fs.writeFile(tmp, data, { mode: 0o444 });
      await fs.rename(tmp, file);
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    return id;
  }
}
