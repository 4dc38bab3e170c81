// Archives made by the tests, hostile ones included: entries that climb out, absolute names,
// links out, devices, a bomb, a cut-short file. Tar through tar-stream's packer (with gzip from
// zlib, bzip2 from Debian's `bzip2`); zip written here byte by byte, so any name, mode and
// link can be put in it (no zip tool would write `../../x`).
import { execFileSync } from 'node:child_process';
import { deflateRawSync, gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

export interface ArchiveEntry {
  name: string;
  /** File content (files), link target (links). */
  data?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  mode?: number;
}

export async function makeTar(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => chunks.push(c as Buffer));
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const e of entries) {
    const type = e.type ?? 'file';
    if (type === 'symlink' || type === 'link') {
      pack.entry({ name: e.name, type, linkname: String(e.data ?? ''), mode: e.mode ?? 0o777 });
    } else if (type === 'file') {
      pack.entry({ name: e.name, type, mode: e.mode ?? 0o644 }, Buffer.from(e.data ?? ''));
    } else {
      pack.entry({ name: e.name, type, mode: e.mode ?? 0o755 });
    }
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export async function makeTarGz(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  return gzipSync(await makeTar(entries));
}

/** bzip2 by Debian's program (the tests that use it run on Linux). */
export async function makeTarBz2(entries: readonly ArchiveEntry[]): Promise<Buffer> {
  return execFileSync('bzip2', ['-c'], { input: await makeTar(entries) });
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const S_IF = { file: 0o100000, directory: 0o040000, symlink: 0o120000, 'character-device': 0o020000, fifo: 0o010000 };

/** A zip made "on Unix" (modes in the external attributes), deflated, names in UTF-8. */
export function makeZip(entries: readonly ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const type = e.type ?? 'file';
    if (type === 'link') throw new Error('zip has no hard links');
    const name = Buffer.from(type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name, 'utf8');
    const data = Buffer.from(type === 'file' || type === 'symlink' ? (e.data ?? '') : '');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const mode = (S_IF[type] | (e.mode ?? (type === 'directory' ? 0o755 : type === 'symlink' ? 0o777 : 0o644))) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
