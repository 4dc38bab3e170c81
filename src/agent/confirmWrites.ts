/**
 * Files whose contents make tools run code: a write there is a command run later, by Git or by
 * VS Code, whatever `allowTerminals` says (`core.fsmonitor` in `.git/config` runs on the next
 * `git status`, which VS Code's Git extension runs by itself). Such writes need the user's
 * explicit confirmation; the setting `acp.confirmWritesTo` adds patterns, never removes these.
 */

/** A write the user is asked to confirm: what, where, and why it matters. */
export interface WriteConfirmation {
  sessionId: string;
  /** As the agent gave it. */
  path: string;
  /** The real path that would be written. */
  realPath: string;
  /** The file's text now; undefined for a new file (or one too large to show). */
  oldText?: string;
  newText: string;
  /** Why this file needs confirmation, in words. */
  reason: string;
}

interface Rule {
  pattern: string;
  reason: string;
}

const GIT = 'files in .git can make Git run commands (hooks, core.fsmonitor, aliases)';
/** Always asked for, relative to the root the file is in, at any depth. */
export const DEFAULT_CONFIRM_WRITES: readonly Rule[] = [
  { pattern: '**/.git/**', reason: GIT },
  { pattern: '**/.git', reason: GIT },
  { pattern: '**/.vscode/settings.json', reason: 'VS Code settings can make extensions run programs' },
  { pattern: '**/.vscode/tasks.json', reason: 'tasks run commands' },
  { pattern: '**/.vscode/launch.json', reason: 'launch configurations run programs' },
  { pattern: '*.code-workspace', reason: 'a workspace file carries settings and tasks that run commands' },
];

/**
 * Why writing `relative` (a path inside a root, relative to it, with `/` between names) needs
 * confirmation, or undefined when it does not. Names compare without case, whatever the volume:
 * asking once too often is the safe side.
 */
export function confirmationReason(relative: string, extra: readonly string[] = []): string | undefined {
  const path = relative.replace(/\\/g, '/');
  const rules = [
    ...DEFAULT_CONFIRM_WRITES,
    ...extra.map((pattern) => ({ pattern, reason: `it matches "${pattern}" in "acp.confirmWritesTo"` })),
  ];
  return rules.find((r) => globMatches(r.pattern, path))?.reason;
}

const compiled = new Map<string, RegExp>();

/**
 * A glob as in `.gitignore`: `**` any number of folders, `*` any name part, `?` one character,
 * `{a,b}` either; a pattern without `/` matches a file name at any depth.
 */
export function globMatches(pattern: string, path: string): boolean {
  let re = compiled.get(pattern);
  if (!re) compiled.set(pattern, (re = globToRegExp(pattern.includes('/') ? pattern : `**/${pattern}`)));
  return re.test(path);
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        re += '(?:[^/]*/)*';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}${')'.repeat(braces)}$`, 'i');
}
