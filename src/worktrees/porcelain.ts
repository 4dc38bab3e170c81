/**
 * Git's machine-readable outputs, read with `-z` where git has it: paths then come unquoted,
 * so spaces, quotes and non-ASCII letters arrive as they are.
 */

/** One worktree as `git worktree list --porcelain` states it. */
export interface WorktreeEntry {
  path: string;
  /** The commit checked out; absent for a bare repository. */
  head?: string;
  /** The short branch name; absent when HEAD is detached. */
  branch?: string;
  bare: boolean;
  detached: boolean;
  /** Set when locked: the reason given, or ''. */
  locked?: string;
  /** Set when git would prune it (its folder is gone): git's reason. */
  prunable?: string;
}

/**
 * Parses `git worktree list --porcelain` output: with `-z` (fields end in NUL, a record in an
 * empty field), or without (lines, a record ending in a blank line; git 2.17–2.35).
 */
export function parseWorktreeList(out: string, z: boolean): WorktreeEntry[] {
  const fields = out.split(z ? '\0' : '\n');
  const entries: WorktreeEntry[] = [];
  let cur: WorktreeEntry | undefined;
  for (const field of fields) {
    if (field === '') {
      cur = undefined;
      continue;
    }
    const space = field.indexOf(' ');
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? undefined : field.slice(space + 1);
    if (key === 'worktree') {
      cur = { path: value ?? '', bare: false, detached: false };
      entries.push(cur);
      continue;
    }
    if (!cur) continue;
    if (key === 'HEAD') cur.head = value;
    else if (key === 'branch') cur.branch = value?.replace(/^refs\/heads\//, '');
    else if (key === 'bare') cur.bare = true;
    else if (key === 'detached') cur.detached = true;
    else if (key === 'locked') cur.locked = value ?? '';
    else if (key === 'prunable') cur.prunable = value ?? '';
  }
  return entries;
}

/** One changed file: its path, the one it was renamed from, and a one-letter status. */
export interface FileStatus {
  path: string;
  from?: string;
  /** A, M, D, R, C, T, U (unmerged), ? (untracked) or ! (ignored, with `--ignored`). */
  status: string;
}

/** Parses `git status --porcelain=v1 -z`: "XY path" fields, a rename followed by its old path. */
export function parseStatusZ(out: string): FileStatus[] {
  const parts = out.split('\0');
  const files: FileStatus[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const xy = p.slice(0, 2);
    const path = p.slice(3);
    const unmerged = /^(DD|AU|UD|UA|DU|AA|UU)$/.test(xy);
    if (xy[0] === 'R' || xy[0] === 'C') {
      files.push({ path, from: parts[++i], status: xy[0] });
      continue;
    }
    const status = unmerged ? 'U' : xy === '??' ? '?' : xy[0] !== ' ' ? xy[0]! : xy[1]!;
    files.push({ path, status });
  }
  return files;
}

/** Parses `git diff --name-status -z`: a status field, then the path (two for a rename or copy). */
export function parseNameStatusZ(out: string): FileStatus[] {
  const parts = out.split('\0');
  const files: FileStatus[] = [];
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i]!;
    if (!s) continue;
    const status = s[0]!;
    if (status === 'R' || status === 'C') {
      const from = parts[++i]!;
      files.push({ path: parts[++i]!, from, status });
    } else files.push({ path: parts[++i]!, status });
  }
  return files;
}
