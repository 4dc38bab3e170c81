/**
 * An agent's archive unpacked into an empty folder of ours, every entry checked before a byte of
 * it is written: no name that climbs out (`..`), is absolute or a drive path, or (on Windows) is
 * read as another file; no link that points out of the folder, and nothing written through a link;
 * no device, FIFO or other special file; no entry listed twice; no more bytes or entries than the
 * caps. The archive is read by well-kept libraries (`yauzl` for zip, `tar-stream` for tar, Node's
 * zlib for gzip, `unbzip2-stream` for bzip2); what they hand over is never trusted. An archive that
 * is refused or cut short throws `UnpackRefused`; the caller removes the folder whole.
 */
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import unbzip2 from 'unbzip2-stream';
import * as yauzl from 'yauzl';
import { unportableName } from '../platform/portableNames';
import { sizeText } from './download';

export class UnpackRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnpackRefused';
  }
}

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar.bz2' | 'tar' | 'raw';

/** The kind an address names (FORMAT.md: `.zip`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tbz2`, else the program itself). */
export function archiveKind(address: string): ArchiveKind {
  let name = address;
  try {
    name = new URL(address).pathname;
  } catch {
    // A plain name.
  }
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.tar.bz2') || lower.endsWith('.tbz2')) return 'tar.bz2';
  if (lower.endsWith('.tar')) return 'tar';
  return 'raw';
}

export interface UnpackLimits {
  /** Bytes of all files together, unpacked. */
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly platform?: NodeJS.Platform;
  /** Cancels between entries and within a file. */
  readonly signal?: AbortSignal;
}

export interface Unpacked {
  readonly files: number;
  readonly bytes: number;
}

/**
 * An entry's name as parts of a relative path inside the folder, or why it is refused. `./` and
 * empty parts are dropped; a name that is only those (the archive's root) gives no parts.
 */
export function entryParts(name: string, platform: NodeJS.Platform = process.platform): string[] | string {
  if (name.includes('\0')) return `"${name}" holds a NUL character`;
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return `"${name}" is an absolute path`;
  // Zip names use `/` only; a `\` is a separator on Windows, so it is refused everywhere it could climb.
  const parts = name.split(platform === 'win32' ? /[\\/]/ : '/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return `"${name}" climbs out of the folder ("..")`;
  if (platform === 'win32') {
    for (const p of parts) {
      const why = unportableName(p);
      if (why) return `"${name}": "${p}" ${why}`;
    }
  }
  return parts;
}

function inside(root: string, target: string): boolean {
  const rel = nodePath.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/** Writes entries into one folder, checking each against what is already there. */
class Writer {
  private entries = 0;
  private bytes = 0;
  private files = 0;
  /** The links made, checked again once everything is written (a later link can change where one leads). */
  private readonly links: string[] = [];

  constructor(
    private readonly root: string,
    private readonly limits: UnpackLimits,
  ) {}

  get result(): Unpacked {
    return { files: this.files, bytes: this.bytes };
  }

  private platform(): NodeJS.Platform {
    return this.limits.platform ?? process.platform;
  }

  /** The path of an entry, its folders made, with no link on the way: or refused. */
  private async place(name: string, isDir = false): Promise<string | undefined> {
    if (this.limits.signal?.aborted) throw new UnpackRefused('cancelled');
    if (++this.entries > this.limits.maxEntries)
      throw new UnpackRefused(`the archive holds more than ${this.limits.maxEntries} entries`);
    const parts = entryParts(name, this.platform());
    if (typeof parts === 'string') throw new UnpackRefused(`refused: the entry ${parts}`);
    if (parts.length === 0) return undefined;
    let at = this.root;
    const folders = isDir ? parts : parts.slice(0, -1);
    for (const part of folders) {
      at = nodePath.join(at, part);
      let stat;
      try {
        stat = await fs.lstat(at);
      } catch {
        await fs.mkdir(at);
        continue;
      }
      if (stat.isSymbolicLink())
        throw new UnpackRefused(`refused: the entry "${name}" would be written through the link "${part}"`);
      if (!stat.isDirectory()) throw new UnpackRefused(`refused: the entry "${name}" needs "${part}" to be a folder`);
    }
    return isDir ? at : nodePath.join(at, parts[parts.length - 1]!);
  }

  async dir(name: string): Promise<void> {
    await this.place(name, true);
  }

  /** A file from `source`, at most `declared` bytes (when the archive says its size). */
  async file(name: string, source: Readable, mode: number, declared?: number): Promise<void> {
    const path = await this.place(name);
    if (!path) throw new UnpackRefused(`refused: a file entry "${name}" has no name`);
    if (declared !== undefined && this.bytes + declared > this.limits.maxBytes) throw this.tooLarge();
    const count = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.bytes += chunk.length;
        if (this.limits.signal?.aborted) return done(new UnpackRefused('cancelled'));
        done(this.bytes > this.limits.maxBytes ? this.tooLarge() : null, chunk);
      },
    });
    // `wx`: an entry listed twice, or a name a link already holds, is never written over.
    try {
      await pipeline(source, count, createWriteStream(path, { flags: 'wx', mode: (mode & 0o777) | 0o600 }));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UnpackRefused(`refused: "${name}" is listed twice`);
      throw e;
    }
    this.files++;
  }

  /** A symbolic link whose target stays inside the folder. */
  async symlink(name: string, target: string): Promise<void> {
    const path = await this.place(name);
    if (!path) throw new UnpackRefused(`refused: a link entry "${name}" has no name`);
    const win = this.platform() === 'win32';
    if (
      !target ||
      target.includes('\0') ||
      nodePath.isAbsolute(target) ||
      /^[A-Za-z]:/.test(target) ||
      (win && target.includes('\\'))
    )
      throw new UnpackRefused(`refused: the link "${name}" points to "${target}", outside the folder`);
    if (!inside(this.root, nodePath.resolve(nodePath.dirname(path), target)))
      throw new UnpackRefused(`refused: the link "${name}" points to "${target}", outside the folder`);
    try {
      await fs.symlink(target, path);
      this.links.push(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new UnpackRefused(`refused: "${name}" is listed twice`);
      throw new UnpackRefused(`the link "${name}" could not be made: ${(e as Error).message}`);
    }
  }

  /** A hard link to a file unpacked before it. */
  async hardlink(name: string, target: string): Promise<void> {
    const parts = entryParts(target, this.platform());
    if (typeof parts === 'string' || parts.length === 0)
      throw new UnpackRefused(`refused: the hard link "${name}" points to "${target}", outside the folder`);
    const from = nodePath.join(this.root, ...parts);
    const stat = await fs.lstat(from).catch(() => undefined);
    if (!stat?.isFile())
      throw new UnpackRefused(
        `refused: the hard link "${name}" points to "${target}", which is not a file unpacked before it`,
      );
    const path = await this.place(name);
    if (!path) throw new UnpackRefused(`refused: a link entry "${name}" has no name`);
    if (this.bytes + stat.size > this.limits.maxBytes) throw this.tooLarge();
    this.bytes += stat.size;
    await fs.copyFile(from, path, 1 /* COPYFILE_EXCL */);
    this.files++;
  }

  /**
   * Every link, followed as the system follows it, must end on something inside the folder: a
   * link through another link (`a -> .`, `b -> a/../x`) can lead out although its text does not.
   */
  async checkLinks(): Promise<void> {
    const root = await fs.realpath(this.root);
    for (const link of this.links) {
      const shown = nodePath.relative(this.root, link);
      let real: string;
      try {
        real = await fs.realpath(link);
      } catch {
        throw new UnpackRefused(`refused: the link "${shown}" leads to nothing inside the folder`);
      }
      if (!inside(root, real)) throw new UnpackRefused(`refused: the link "${shown}" leads outside the folder`);
    }
  }

  tooLarge(): UnpackRefused {
    return new UnpackRefused(`refused: the archive unpacks to more than ${sizeText(this.limits.maxBytes)}`);
  }
}

async function unpackTar(archive: string, gz: 'gz' | 'bz2' | undefined, w: Writer): Promise<void> {
  const extract = tar.extract();
  const source = createReadStream(archive);
  const chain =
    gz === 'gz'
      ? pipeline(source, createGunzip(), extract)
      : gz === 'bz2'
        ? pipeline(source, unbzip2() as unknown as Transform, extract)
        : pipeline(source, extract);
  let fed: unknown;
  const feeding = chain.catch((e: unknown) => {
    fed = e;
  });
  try {
    for await (const entry of extract) {
      const h = entry.header;
      const stream = entry as unknown as Readable;
      switch (h.type) {
        case 'file':
        case 'contiguous-file':
          await w.file(h.name, stream, h.mode ?? 0o644, h.size);
          break;
        case 'directory':
          await w.dir(h.name);
          stream.resume();
          break;
        case 'symlink':
          await w.symlink(h.name, h.linkname ?? '');
          stream.resume();
          break;
        case 'link':
          await w.hardlink(h.name, h.linkname ?? '');
          stream.resume();
          break;
        default:
          throw new UnpackRefused(
            `refused: the entry "${h.name}" is a ${h.type ?? 'special file'}, not a file, folder or link`,
          );
      }
    }
  } catch (e) {
    extract.destroy();
    await feeding;
    throw fed && !(e instanceof UnpackRefused) ? cutShort(fed) : e instanceof UnpackRefused ? e : cutShort(e);
  }
  await feeding;
  if (fed) throw cutShort(fed);
}

function cutShort(e: unknown): UnpackRefused {
  return e instanceof UnpackRefused
    ? e
    : new UnpackRefused(`the archive cannot be read (cut short or damaged): ${(e as Error).message}`);
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    // Names are decoded here, not by yauzl, so that every one of them meets the checks above.
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true },
      (e, zip) => (e || !zip ? reject(e ?? new Error('no zip')) : resolve(zip)),
    ),
  );
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (e, s) => (e || !s ? reject(e ?? new Error('no stream')) : resolve(s))),
  );
}

async function smallText(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) throw new UnpackRefused('refused: a link target is longer than any path');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function unpackZip(archive: string, w: Writer, limits: UnpackLimits): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(archive);
  } catch (e) {
    throw cutShort(e);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new UnpackRefused(`the archive holds more than ${limits.maxEntries} entries`);
  }
  await new Promise<void>((resolve, reject) => {
    const fail = (e: unknown) => {
      zip.close();
      reject(e instanceof UnpackRefused ? e : cutShort(e));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        // UTF-8 when the archive says so (bit 11); otherwise read byte for byte (ASCII stays ASCII).
        const raw = entry.fileNameRaw;
        const fileName = raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
        // Unix modes live in the high half of the external attributes of archives made on Unix.
        const unix = entry.versionMadeBy >> 8 === 3;
        const mode = unix ? entry.externalFileAttributes >>> 16 : 0;
        const type = mode & S_IFMT;
        const isDir = fileName.endsWith('/') || type === S_IFDIR;
        if (isDir) await w.dir(fileName);
        else if (type === S_IFLNK) await w.symlink(fileName, await smallText(await entryStream(zip, entry), 4096));
        else if (type !== 0 && type !== S_IFREG)
          throw new UnpackRefused(`refused: the entry "${fileName}" is a special file (device, FIFO or socket)`);
        else await w.file(fileName, await entryStream(zip, entry), unix ? mode : 0o644, entry.uncompressedSize);
        zip.readEntry();
      })().catch(fail);
    });
    zip.readEntry();
  });
}

/** Unpacks `archive` of `kind` (not `raw`) into the empty folder `dest`. */
export async function unpack(
  archive: string,
  kind: Exclude<ArchiveKind, 'raw'>,
  dest: string,
  limits: UnpackLimits,
): Promise<Unpacked> {
  const w = new Writer(dest, limits);
  if (kind === 'zip') await unpackZip(archive, w, limits);
  else await unpackTar(archive, kind === 'tar.gz' ? 'gz' : kind === 'tar.bz2' ? 'bz2' : undefined, w);
  await w.checkLinks();
  return w.result;
}
