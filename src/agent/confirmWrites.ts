/**
 * Files whose contents make tools run code: a write there is a command run later, by Git, by
 * VS Code, by a package manager or by a shell, whatever `allowTerminals` says (`core.fsmonitor`
 * in `.git/config` runs on the next `git status`, which VS Code's Git extension runs by itself;
 * `.husky/pre-commit` on the next commit). Such writes need the user's explicit confirmation;
 * the setting `acp.confirmWritesTo` adds patterns, never removes these.
 *
 * The line drawn: a file is here when a tool runs what it says on an action that is not "run
 * this project's code" (a commit, a `git status`, opening the folder or its container, an
 * install, entering the folder in a shell, an agent's start), so the user would not think of
 * reading it first. Files that run only when the user runs the project (a `Makefile`, source,
 * test scripts) are not: asking for them would be asking for every write. Left out on purpose:
 * `.gitattributes` (it can only name filter and diff drivers that a Git config, confirmed here,
 * defines), `.gitmodules` (Git ignores commands in it), `.nvmrc` and `.node-version` (a
 * version, not a program), `.github/workflows` (runs elsewhere, after a push the user makes).
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
  /**
   * For a file where only some changes run code: whether this change does. Absent: every
   * write does. `oldText` is undefined for a new file (or one too large to read).
   */
  matters?: (oldText: string | undefined, newText: string) => boolean;
}

const GIT = 'files in .git can make Git run commands (hooks, core.fsmonitor, aliases)';
const HOOKS = 'Git runs the hooks in it on a commit (Husky and similar tools point Git at this folder)';
const LEFTHOOK = 'Lefthook runs the commands it names on a commit';
const AGENT = 'an agent runs the hooks and MCP servers it names when it starts';
/**
 * Always asked for, relative to the root the file is in, at any depth. docs/safety.md lists
 * the same set.
 */
export const DEFAULT_CONFIRM_WRITES: readonly Rule[] = [
  { pattern: '**/.git/**', reason: GIT },
  { pattern: '**/.git', reason: GIT },
  { pattern: '**/.husky/**', reason: HOOKS },
  { pattern: '**/.githooks/**', reason: HOOKS },
  { pattern: '**/.pre-commit-config.{yaml,yml}', reason: 'pre-commit runs the hooks it names on a commit' },
  { pattern: '**/{.,}lefthook{,-local}.{yml,yaml,json,jsonc,toml}', reason: LEFTHOOK },
  { pattern: '**/.lefthook/**', reason: LEFTHOOK },
  { pattern: '**/.vscode/settings.json', reason: 'VS Code settings can make extensions run programs' },
  { pattern: '**/.vscode/tasks.json', reason: 'tasks run commands, some as soon as the folder opens' },
  { pattern: '**/.vscode/launch.json', reason: 'launch configurations run programs' },
  { pattern: '**/.vscode/mcp.json', reason: 'VS Code starts the MCP servers it names' },
  { pattern: '*.code-workspace', reason: 'a workspace file carries settings and tasks that run commands' },
  {
    pattern: '**/{.devcontainer/**,.devcontainer.json}',
    reason: 'a dev container runs its commands, initializeCommand on this machine, when the folder is reopened in it',
  },
  { pattern: '**/.envrc', reason: 'direnv runs it in the shell that enters the folder' },
  { pattern: '**/{.,}mise{,.local}.toml', reason: 'mise runs its hooks and tasks in the shell that enters the folder' },
  { pattern: '**/.npmrc', reason: 'npm reads its script shell, Node options and registry from it on every command' },
  {
    pattern: '**/.yarnrc{,.yml}',
    reason: 'Yarn runs the program its yarnPath names, and its plugins, on every command',
  },
  { pattern: '**/.pnpmfile.{cjs,mjs}', reason: 'pnpm runs its hooks on every install' },
  { pattern: '**/binding.gyp', reason: 'an install builds it with node-gyp, which runs the commands it names' },
  { pattern: '**/{.mcp.json,.claude/settings.json,.claude/settings.local.json,.gemini/settings.json}', reason: AGENT },
  {
    pattern: '**/package.json',
    reason:
      'an install runs its lifecycle scripts (preinstall, install, postinstall, prepare…) and the package manager it names',
    matters: (oldText, newText) => !sameInstallCommands(oldText, newText),
  },
];

/**
 * The scripts npm, Yarn and pnpm run by themselves on `install`, `ci`, `rebuild`, `pack` or
 * `publish` (npm's "life cycle scripts"; `dependencies` runs when `node_modules` changes).
 */
const LIFECYCLE = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepack',
  'postpack',
  'dependencies',
  'pnpm:devPreinstall',
];

/**
 * What an install runs, from a `package.json` as the package managers read it (`JSON.parse`,
 * so of keys written twice the last one counts): the lifecycle scripts and `packageManager`,
 * which Corepack fetches and runs (it may name an address). A text that does not parse runs
 * nothing.
 */
function installCommands(text: string | undefined): string {
  let pkg: unknown;
  try {
    pkg = text === undefined ? undefined : JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    pkg = undefined;
  }
  const { scripts, packageManager } = pkg && typeof pkg === 'object' ? (pkg as Record<string, unknown>) : {};
  const s = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>) : {};
  return JSON.stringify([packageManager ?? null, ...LIFECYCLE.map((k) => (Object.hasOwn(s, k) ? s[k] : null))]);
}

function sameInstallCommands(oldText: string | undefined, newText: string): boolean {
  return installCommands(oldText) === installCommands(newText);
}

/** Why a write needs confirmation, and, for a file where only some changes do, which. */
export interface ConfirmationRule {
  readonly reason: string;
  readonly matters?: (oldText: string | undefined, newText: string) => boolean;
}

/**
 * The rule that makes writing `relative` (a path inside a root, relative to it, with `/` or `\`
 * between names) need confirmation, or undefined. Names compare without case, whatever the
 * volume: asking once too often is the safe side.
 */
export function confirmationRule(relative: string, extra: readonly string[] = []): ConfirmationRule | undefined {
  const path = relative.replace(/\\/g, '/');
  const rules: Rule[] = [
    ...DEFAULT_CONFIRM_WRITES,
    ...extra.map((pattern) => ({ pattern, reason: `it matches "${pattern}" in "acp.confirmWritesTo"` })),
  ];
  // A pattern of the setting that matches too asks for every change of a file a default rule
  // asks for only some changes of.
  const matched = rules.filter((r) => globMatches(r.pattern, path));
  return matched.find((r) => !r.matters) ?? matched[0];
}

/**
 * Why writing `relative` needs confirmation, or undefined when it does not. For a file where
 * only some changes run code, `change` says what the write does (without it, any write of that
 * file counts).
 */
export function confirmationReason(
  relative: string,
  extra: readonly string[] = [],
  change?: { oldText?: string; newText: string },
): string | undefined {
  const rule = confirmationRule(relative, extra);
  if (!rule) return undefined;
  if (change && rule.matters && !rule.matters(change.oldText, change.newText)) return undefined;
  return rule.reason;
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
