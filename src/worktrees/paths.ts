import * as path from 'node:path';

/**
 * Where a new worktree goes: `<location>/<branch>` when the user set a location (a relative one
 * is taken from the repository's folder), else a sibling of the repository, `<repo>.worktrees/<branch>`,
 * so the worktree is never inside the repository's own tree unless the user chose it. `outer`
 * is the outermost superproject when the repository is a submodule: a sibling of the submodule
 * would sit inside the superproject's tree, so its worktrees go beside the superproject, in a
 * folder named after the submodule.
 */
export function worktreePath(
  repo: string,
  branch: string,
  options: { location?: string; outer?: string; platform?: NodeJS.Platform } = {},
): string {
  const p = (options.platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
  // A branch name may hold slashes ("feature/x"): a folder each, as git's own refs do.
  const parts = branch.split('/');
  const location = options.location?.trim();
  if (location) return p.join(p.resolve(repo, location), ...parts);
  if (options.outer && options.outer !== repo) {
    return p.join(`${options.outer}.worktrees`, p.relative(options.outer, repo).split(p.sep).join('-'), ...parts);
  }
  return p.join(`${repo}.worktrees`, ...parts);
}

/**
 * A branch name from the first words of a prompt ("Fix the login bug" → "acp/fix-the-login-bug"),
 * or from the time when there are none; `check-ref-format` still has the last word.
 */
export function defaultBranchName(prompt: string | undefined, now: Date): string {
  const words = (prompt ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 5);
  if (words.length > 0) return `acp/${words.join('-').slice(0, 48).replace(/-+$/, '')}`;
  const two = (n: number) => String(n).padStart(2, '0');
  return `acp/${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}`;
}
