import * as path from 'node:path';
import { isDeviceName } from '../platform/portableNames';

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

/** How many characters of words a default branch name keeps after `acp/`. */
export const BRANCH_WORDS_MAX = 40;

/**
 * A branch name from the first words of a prompt or a session's title ("Fix the login bug" →
 * "acp/fix-the-login-bug"), or from the time when there are none. Letters of any script are
 * kept (accents dropped where they come off); everything else between words, the characters
 * Windows refuses in a folder name and those git refuses in a ref among them, becomes one
 * hyphen. The name is also the worktree's folder, so it is cut after a whole word and never
 * left as a name Windows reserves; `check-ref-format` still has the last word.
 */
export function defaultBranchName(prompt: string | undefined, now: Date): string {
  const words = (prompt ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 5);
  if (words.length > 0) {
    // Whole words while they fit; a first word longer than the cap is cut at a whole character.
    let name = Array.from(words[0]!).slice(0, BRANCH_WORDS_MAX).join('');
    for (const w of words.slice(1)) {
      if (Array.from(`${name}-${w}`).length > BRANCH_WORDS_MAX) break;
      name = `${name}-${w}`;
    }
    if (isDeviceName(name)) name = `${name}-1`;
    return `acp/${name}`;
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return `acp/${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}`;
}
