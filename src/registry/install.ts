/**
 * A binary agent installed into `agents/<id>/<version>/` of the extension's global storage:
 * downloaded beside that folder, checked against the registry's SHA-256 when it gives one,
 * unpacked into a folder of its own, its `cmd` checked to be a file inside it and made
 * executable, and only then renamed into place. Whatever fails or is cancelled on the way, the
 * partial folder and the download are removed: an install is whole or absent.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { AGENT_ID, SAFE_VERSION, type BinaryTarget } from './format';
import { download, type DownloadProgress } from './download';
import type { GetOptions } from './http';
import { archiveKind, entryParts, unpack, UnpackRefused } from './unpack';

/** What a folder holds once its install finished; a version folder without it is not an install. */
export const MARKER = '.acp-install.json';
/**
 * The folder of leases inside a version folder: files named by process ids. The window that
 * installs leaves one of its own until the entry is written; each start of the agent leaves one.
 */
export const LEASES = '.acp-running';

export interface InstallLimits {
  readonly maxDownloadBytes: number;
  readonly maxUnpackedBytes: number;
  readonly maxEntries: number;
}

export const DEFAULT_LIMITS: InstallLimits = {
  maxDownloadBytes: 1024 * 1024 * 1024,
  maxUnpackedBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 50_000,
};

export interface BinaryInstall {
  /** `<global storage>/agents`. */
  readonly agentsDir: string;
  readonly id: string;
  readonly version: string;
  readonly target: BinaryTarget;
  readonly limits?: Partial<InstallLimits>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: DownloadProgress & { phase: 'download' | 'unpack' }) => void;
  readonly http?: Partial<Pick<GetOptions, 'answerMs' | 'stallMs' | 'ca'>>;
  readonly platform?: NodeJS.Platform;
}

export interface Installed {
  /** The version folder. */
  readonly dir: string;
  /** The program to start: the absolute path of `cmd` in the folder. */
  readonly command: string;
  /** True when the folder was there already (a second entry for the same version). */
  readonly reused: boolean;
}

/** The folder an agent's version is installed in, or why an id or version cannot name one. */
export function versionDir(agentsDir: string, id: string, version: string): string | string[] {
  const problems: string[] = [];
  if (!AGENT_ID.test(id) || id.length > 64) problems.push(`the id "${id}" is not lowercase letters, digits and "-"`);
  if (!SAFE_VERSION.test(version) || version.includes('..'))
    problems.push(`the version "${version}" cannot name a folder`);
  return problems.length ? problems : nodePath.join(agentsDir, id, version);
}

/** The parts of `cmd` inside the version folder (`./bin/agent` → `bin`, `agent`), or why it is refused. */
export function commandParts(cmd: string, platform: NodeJS.Platform = process.platform): string[] | string {
  const parts = entryParts(cmd, platform);
  if (typeof parts === 'string') return `its command ${parts.replace(/^"[^"]*" /, `"${cmd}" `)}`;
  if (parts.length === 0) return `its command "${cmd}" names no file`;
  return parts;
}

export class InstallRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstallRefused';
  }
}

function inside(root: string, target: string): boolean {
  const rel = nodePath.relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel);
}

/** The command file in `dir`: a regular file inside it (a link is followed and must stay inside). */
async function checkCommand(dir: string, parts: string[], cmd: string, platform: NodeJS.Platform): Promise<string> {
  const path = nodePath.join(dir, ...parts);
  const real = await fs.realpath(path).catch(() => undefined);
  if (!real) throw new InstallRefused(`its command "${cmd}" is not in the archive`);
  if (!inside(await fs.realpath(dir), real))
    throw new InstallRefused(`its command "${cmd}" leads outside the install folder`);
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw new InstallRefused(`its command "${cmd}" is not a file`);
  if (platform !== 'win32') await fs.chmod(real, (stat.mode & 0o777) | 0o755);
  return path;
}

async function existing(dir: string, parts: string[]): Promise<string | undefined> {
  try {
    await fs.access(nodePath.join(dir, MARKER));
    const path = nodePath.join(dir, ...parts);
    return (await fs.stat(path)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Installs one platform's download of an agent; see the file's comment. */
export async function installBinary(o: BinaryInstall): Promise<Installed> {
  const platform = o.platform ?? process.platform;
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const dir = versionDir(o.agentsDir, o.id, o.version);
  if (Array.isArray(dir)) throw new InstallRefused(dir.join('; '));
  const parts = commandParts(o.target.cmd, platform);
  if (typeof parts === 'string') throw new InstallRefused(parts);
  const already = await existing(dir, parts);
  if (already) return { dir, command: already, reused: true };
  // A version folder that is not a whole install (none of ours is left so): ours to replace.
  await fs.rm(dir, { recursive: true, force: true });
  const idDir = nodePath.dirname(dir);
  await fs.mkdir(idDir, { recursive: true });
  const tag = randomBytes(6).toString('hex');
  const partial = nodePath.join(idDir, `.partial-${o.version}-${tag}`);
  const file = nodePath.join(idDir, `.download-${tag}`);
  try {
    const got = await download(o.target.archive, file, {
      maxBytes: limits.maxDownloadBytes,
      signal: o.signal,
      http: o.http,
      onProgress: (p) => o.onProgress?.({ ...p, phase: 'download' }),
    });
    if (o.target.sha256 && got.sha256 !== o.target.sha256)
      throw new InstallRefused(
        `the download's SHA-256 is ${got.sha256}, not the ${o.target.sha256} the registry gives`,
      );
    await fs.mkdir(partial);
    const kind = archiveKind(o.target.archive);
    o.onProgress?.({ phase: 'unpack', bytes: got.bytes, total: got.bytes });
    if (kind === 'raw') {
      // The download is the program itself: it takes the name `cmd` gives it.
      if (parts.length !== 1)
        throw new InstallRefused(`its command "${o.target.cmd}" is in a folder, but the download is one file`);
      await fs.rename(file, nodePath.join(partial, parts[0]!));
    } else {
      await unpack(file, kind, partial, {
        maxBytes: limits.maxUnpackedBytes,
        maxEntries: limits.maxEntries,
        platform,
        signal: o.signal,
      });
    }
    if (o.signal?.aborted) throw new InstallRefused('cancelled');
    await checkCommand(partial, parts, o.target.cmd, platform);
    const marker = {
      id: o.id,
      version: o.version,
      archive: o.target.archive,
      sha256: got.sha256,
      installedAt: Date.now(),
    };
    await fs.writeFile(nodePath.join(partial, MARKER), JSON.stringify(marker));
    // Held by this window until its entry is written (see `releaseLease`): no sweep takes it meanwhile.
    await fs.mkdir(nodePath.join(partial, LEASES));
    await fs.writeFile(nodePath.join(partial, LEASES, String(process.pid)), String(Date.now()));
    try {
      await fs.rename(partial, dir);
    } catch (e) {
      // Another window installed the same version meanwhile: its folder is used, ours removed.
      const theirs = await existing(dir, parts);
      if (!theirs) throw e;
      await fs.rm(partial, { recursive: true, force: true });
      return { dir, command: theirs, reused: true };
    }
    return { dir, command: nodePath.join(dir, ...parts), reused: false };
  } catch (e) {
    await fs.rm(partial, { recursive: true, force: true });
    if (e instanceof UnpackRefused) throw new InstallRefused(e.message);
    throw e;
  } finally {
    await fs.rm(file, { force: true });
  }
}
