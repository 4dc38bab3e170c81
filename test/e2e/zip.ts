// Reads a VSIX (a zip) without unpacking it: the names it holds and one file's bytes. Enough of
// the format for what `vsce package` writes (stored or deflated entries, no zip64).
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localHeader: number;
}

function entries(zip: Buffer): Entry[] {
  // The end-of-central-directory record sits in the last 64 KiB (after an optional comment).
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    out.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return out;
}

export class ZipFile {
  private readonly zip: Buffer;
  private readonly byName: Map<string, Entry>;

  constructor(path: string) {
    this.zip = readFileSync(path);
    this.byName = new Map(entries(this.zip).map((e) => [e.name, e]));
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  read(name: string): Buffer {
    const e = this.byName.get(name);
    if (!e) throw new Error(`${name} is not in the package`);
    const h = e.localHeader;
    const start = h + 30 + this.zip.readUInt16LE(h + 26) + this.zip.readUInt16LE(h + 28);
    const data = this.zip.subarray(start, start + e.compressedSize);
    return e.method === 0 ? Buffer.from(data) : inflateRawSync(data);
  }
}

/** Width and height of a PNG, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
