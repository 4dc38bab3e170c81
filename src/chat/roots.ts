import * as path from 'node:path';
import { isInside, pinRoots, type PinnedRoot } from '../agent/roots';
import { normalizePath } from '../platform/pathKey';

export interface DirectoriesChoice {
  /** Sent as `additionalDirectories`; with the cwd, the session's roots. */
  readonly send: string[];
  /** Asked for but refused: outside every folder of the window (or not absolute). */
  readonly dropped: string[];
}

export interface DirectoriesContext {
  /** The agent advertises `sessionCapabilities.additionalDirectories`. */
  readonly advertised: boolean;
  readonly cwd: string;
  /** The window's workspace folders (absolute paths). */
  readonly workspaceFolders: readonly string[];
  readonly platform?: NodeJS.Platform;
}

/**
 * The further roots a `session/new`, `/load` or `/resume` sends, which with the cwd are all the
 * client lets the agent's `fs/*` and terminals reach. Nothing when the agent does not advertise
 * the capability (what is not sent is not a root of the session). Otherwise the directories
 * asked for — the other folders for a new session, what the session reported for a load or
 * resume — but only those that are a workspace folder of this window or inside one: an agent
 * may report any directory ("/"), and taking it on trust would open it to writes and terminals.
 */
export function directoriesToSend(
  requested: readonly string[] | undefined,
  ctx: DirectoriesContext,
): DirectoriesChoice {
  if (!ctx.advertised || !requested?.length) return { send: [], dropped: [] };
  const platform = ctx.platform ?? process.platform;
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  const fold = platform === 'win32' || platform === 'darwin';
  const folders = ctx.workspaceFolders.filter((f) => flavour.isAbsolute(f)).map((f) => normalizePath(f, platform));
  const seen = new Set([normalizePath(ctx.cwd, platform)]);
  const send: string[] = [];
  const dropped: string[] = [];
  for (const dir of requested) {
    if (typeof dir !== 'string' || !flavour.isAbsolute(dir)) {
      dropped.push(String(dir));
      continue;
    }
    const normal = normalizePath(dir, platform);
    if (!folders.some((f) => isInside(normal, f, flavour.sep, fold))) {
      dropped.push(dir);
      continue;
    }
    if (seen.has(normal)) continue;
    seen.add(normal);
    send.push(dir);
  }
  return { send, dropped };
}

/**
 * One session's roots: its cwd and the additional directories its last new, load or resume
 * sent, with their real paths pinned as the request went out (see `pinRoots`), so a root
 * replaced later by a link cannot widen what the agent reaches.
 */
export class SessionRoots {
  private sent: readonly string[] = [];
  private pinnedRoots: readonly PinnedRoot[] = [];

  constructor(private readonly target: { readonly cwd: string; readonly additionalDirectories?: readonly string[] }) {}

  /** The cwd and the directories sent, as given. */
  get all(): readonly string[] {
    return [this.target.cwd, ...this.sent];
  }

  /** The additional directories sent with the session (saved with the panel for a reload). */
  get directories(): string[] {
    return [...this.sent];
  }

  /** What the client's `fs/*` and terminals check against. */
  get pinned(): readonly PinnedRoot[] {
    return this.pinnedRoots;
  }

  /** The directories a request sends (see {@link directoriesToSend}); they become the roots, pinned. */
  send(
    advertised: boolean,
    workspaceFolders: readonly string[],
    warn: (line: string) => void,
  ): { additionalDirectories?: string[] } {
    const { cwd, additionalDirectories } = this.target;
    const { send, dropped } = directoriesToSend(additionalDirectories, { advertised, cwd, workspaceFolders });
    for (const d of dropped) warn(`not a root: ${JSON.stringify(d)} is outside the window's folders`);
    this.sent = send;
    this.pinnedRoots = pinRoots([cwd, ...send]);
    return send.length ? { additionalDirectories: send } : {};
  }
}
