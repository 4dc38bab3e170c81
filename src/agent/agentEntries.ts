import { findNodeAtLocation, getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { findProgram, isPathLike, type PathEnv } from '../platform/programs';

/**
 * The `acp.agents` list as the user's settings hold it, edited without a JSON editor: entries
 * are kept as written (fields this client does not know included), found by id, and replaced
 * or removed one at a time.
 */
export type RawAgents = readonly unknown[];

/** The id of a raw entry, if it has a string one. */
export function entryId(entry: unknown): string | undefined {
  const id = (entry as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The list as an array (anything else, as the settings may hold by mistake, reads as empty). */
export function asList(raw: unknown): unknown[] {
  return Array.isArray(raw) ? [...(raw as unknown[])] : [];
}

export function withEntry(list: RawAgents, entry: object): unknown[] {
  return [...list, entry];
}

/** The list with the entry of `id` changed by `patch` (other fields, such as `env` or `mcpServers`, stay). */
export function withChanged(list: RawAgents, id: string, patch: Record<string, unknown>): unknown[] {
  return list.map((e) => (entryId(e) === id && e && typeof e === 'object' ? { ...e, ...patch } : e));
}

export function withoutEntry(list: RawAgents, id: string): unknown[] {
  return list.filter((e) => entryId(e) !== id);
}

/**
 * `theirs` added to `ours`, skipping entries whose id `ours` has already: copying agents from
 * one settings scope to another never replaces what is there.
 */
export function mergeEntries(ours: RawAgents, theirs: RawAgents): { list: unknown[]; added: unknown[] } {
  const ids = new Set(ours.map(entryId));
  const added = theirs.filter((e) => {
    const id = entryId(e);
    return id !== undefined && !ids.has(id);
  });
  return { list: [...ours, ...added], added };
}

/** Whether a program can be started as written, and where it is. */
export type CommandCheck =
  { readonly found: true; readonly path: string } | { readonly found: false; readonly why: string };

/**
 * Looks a program up the way the agent process will be started: on the PATH the agent gets (its
 * own `env.PATH` if it sets one), or as a path (a relative one from `cwd`). Nothing is run.
 */
export function checkCommand(program: string, env: PathEnv & { cwd?: string } = {}): CommandCheck {
  if (!program.trim()) return { found: false, why: 'No command was given.' };
  const platform = env.platform ?? process.platform;
  // `\\` separates folders on Windows only; elsewhere it is a character of a name.
  const isPath = isPathLike(program, platform);
  const path = findProgram(program, env);
  if (path) return { found: true, path };
  // A macOS application is a folder; the program is inside it.
  const app = platform === 'darwin' ? /^(.*\.app)\/?$/i.exec(program) : null;
  if (app)
    return {
      found: false,
      why: `"${program}" is an application bundle, not a program: give the program inside it (in "${app[1]}/Contents/MacOS/").`,
    };
  return {
    found: false,
    why: isPath
      ? `"${program}" is not an executable file on this machine.`
      : `"${program}" was not found on PATH on this machine. Check the spelling, give its absolute path, or install it first.`,
  };
}

/** Launchers that fetch a package on first use: the first start can take a minute. */
const DOWNLOADERS: Record<string, { words: number; flags: RegExp }> = {
  npx: { words: 0, flags: /^-/ },
  bunx: { words: 0, flags: /^-/ },
  uvx: { words: 0, flags: /^-/ },
  pnpm: { words: 1, flags: /^-/ },
  yarn: { words: 1, flags: /^-/ },
  pipx: { words: 1, flags: /^-/ },
};

/**
 * The package a launcher such as `npx -y @scope/pkg` downloads before the agent can answer,
 * or undefined for a program that starts at once. `pnpm dlx`, `yarn dlx` and `pipx run` count.
 */
export function downloadedPackage(command: string, args: readonly string[]): string | undefined {
  const program = command
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(cmd|exe)$/i, '');
  const spec = DOWNLOADERS[program];
  if (!spec) return undefined;
  if (spec.words === 1 && !['dlx', 'run'].includes(args[0] ?? '')) return undefined;
  return args.slice(spec.words).find((a) => !spec.flags.test(a));
}

const EMPTY_NODE: Node = { type: 'object', offset: 0, length: 0 };

/** The `acp.agents` array in a settings file's text (JSON with comments), if it has one. */
export function agentsInSettingsText(text: string): unknown[] | undefined {
  const node = findNodeAtLocation(parseTree(text) ?? EMPTY_NODE, ['acp.agents']);
  if (node?.type !== 'array') return undefined;
  // Plain objects: the parser's have no prototype.
  return JSON.parse(JSON.stringify(getNodeValue(node))) as unknown[];
}
