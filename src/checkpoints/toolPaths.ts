import * as path from 'node:path';
import { relativeKey } from '../platform/pathKey';
import type { ToolCallEntry } from '../protocol/entries';

/** Keys of a tool's raw input that name files, as agents spell them. */
const PATH_KEYS =
  /^(path|paths|file|files|file_?path|file_?paths|file_?name|notebook_?path|target_?file|source|destination|old_?path|new_?path|from|to)$/i;
const MAX_DEPTH = 4;

function collect(value: unknown, key: string | undefined, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (key !== undefined && PATH_KEYS.test(key) && value.length < 4096) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 1000)) collect(v, key, depth + 1, out);
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) collect(v, k, depth + 1, out);
  }
}

/**
 * The files a turn's tool calls named, as keys of paths relative to the folder (see
 * `relativeKey`): their locations, the paths of their diffs, and the path-like fields of their
 * raw input. `folders` are the spellings of one folder (as opened, and its real path). A changed
 * file outside this set was written by something no tool call announced: a command, or the user.
 */
export function namedPaths(
  toolCalls: readonly ToolCallEntry[],
  folders: readonly string[],
  platform: NodeJS.Platform = process.platform,
): Set<string> {
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  const raw: string[] = [];
  for (const t of toolCalls) {
    for (const l of t.locations ?? []) if (typeof l.path === 'string') raw.push(l.path);
    for (const c of t.content ?? []) if (c.type === 'diff' && typeof c.path === 'string') raw.push(c.path);
    collect(t.rawInput, undefined, 0, raw);
  }
  const out = new Set<string>();
  for (const p of raw) {
    for (const folder of folders) {
      const abs = flavour.resolve(folder, p);
      const rel = flavour.relative(folder, abs);
      if (rel && !rel.startsWith('..') && !flavour.isAbsolute(rel)) out.add(relativeKey(rel, platform));
    }
  }
  return out;
}

/** Whether the turn ran commands (a terminal, an `execute` tool): files they wrote are named by none. */
export function ranCommands(toolCalls: readonly ToolCallEntry[]): boolean {
  return toolCalls.some((t) => t.kind === 'execute' || (t.content ?? []).some((c) => c.type === 'terminal'));
}
