/**
 * The environments git runs in. Names are matched without case on Windows, where the
 * environment ignores it.
 */

/** Variables that aim a git command at another repository, index or object store than the one named. */
const AIMED = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY']);
/** Variables that run a program of their own: a pager, an external diff, an editor. */
const RUNS = new Set(['GIT_PAGER', 'PAGER', 'GIT_EXTERNAL_DIFF', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR']);

function keyOf(k: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? k.toUpperCase() : k;
}

/**
 * For a git of the extension's own (the checkpoints' shadow repositories): the user's `GIT_*`
 * variables removed (a `GIT_DIR`, `GIT_INDEX_FILE` or `GIT_WORK_TREE` must never point our
 * commands at the user's repository), no system or global config (hooks, fsmonitor commands,
 * filters and credential helpers configured there never run), and messages in English for the
 * few errors recognised.
 */
export function isolatedGitEnv(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = keyOf(k, platform);
    if (key.startsWith('GIT_') || RUNS.has(key) || ['HOME', 'XDG_CONFIG_HOME', 'LC_ALL', 'LANG'].includes(key))
      continue;
    out[k] = v;
  }
  return {
    ...out,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: `${home}${platform === 'win32' ? '\\' : '/'}gitconfig`,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANG: 'C',
    // update-index frees each file's buffer and glibc gives the memory back to the kernel at
    // once (four brk calls a file): a first snapshot of 50,000 files took six times as long as
    // `git add -A`. Keeping freed memory for the next file makes them equal; other C libraries
    // ignore these.
    MALLOC_TOP_PAD_: String(16 * 1024 * 1024),
    MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024),
  };
}

/**
 * For the user's own git (their repositories, for worktrees): their environment (identity and
 * config are theirs to keep), without what would aim a command elsewhere or start a pager, an
 * editor or an external diff, never asking on a terminal, and with English messages.
 */
export function userGitEnv(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const key = keyOf(k, platform);
    if (AIMED.has(key) || RUNS.has(key) || key === 'LC_ALL' || key === 'LANGUAGE') continue;
    out[k] = v;
  }
  return { ...out, LC_ALL: 'C', LANGUAGE: 'C', GIT_TERMINAL_PROMPT: '0' };
}
