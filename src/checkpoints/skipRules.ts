/**
 * What a checkpoint leaves out besides what the folder's `.gitignore` files ignore: folders that
 * are rebuilt rather than written (dependencies, caches, virtual environments) and files over a
 * size limit. Both are settings; these are their defaults.
 */

/** Gitignore patterns, unanchored: they match at any depth, in nested repositories too. */
export const DEFAULT_SKIP: readonly string[] = [
  'node_modules/',
  'bower_components/',
  '.venv/',
  'venv/',
  '__pycache__/',
  '.mypy_cache/',
  '.pytest_cache/',
  '.ruff_cache/',
  '.tox/',
  '.gradle/',
  '.next/',
  '.nuxt/',
  '.turbo/',
  '.parcel-cache/',
  '.svelte-kit/',
  '.terraform/',
  '.DS_Store',
  'Thumbs.db',
];

/** Files larger than this are not kept (their path is listed as skipped). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The shadow repository's `info/exclude`: the skip list, one pattern a line, blank and `#` lines dropped. */
export function excludeFile(skip: readonly string[]): string {
  const lines = skip.map((s) => s.trim()).filter((s) => s.length > 0 && !s.startsWith('#') && !/[\r\n]/.test(s));
  return `# Left out of checkpoints (set by ACP Client; the folder's .gitignore files apply too)\n${lines.join('\n')}\n`;
}

/**
 * The shadow repository's `info/attributes`, which outranks the folder's `.gitattributes`: no
 * line-ending conversion, filter, ident or encoding runs, so a checkpoint holds a file's bytes
 * exactly and restores them exactly; whether a file is text is judged from its content.
 */
export const ATTRIBUTES = '* -text -filter -ident !eol !working-tree-encoding !diff\n';

/**
 * The folder names the skip list leaves out wherever they are (`node_modules/`, `.DS_Store`),
 * and `.git`: nothing in such a folder is ever in a checkpoint, so it is neither watched nor
 * walked. A pattern with a wildcard, a path or a negation is left to git.
 */
export function skippedFolderNames(skip: readonly string[]): Set<string> {
  const names = skip.map((s) => s.trim()).filter((s) => /^[^/*?[\\!#]+\/?$/.test(s));
  return new Set(['.git', ...names.map((s) => s.replace(/\/$/, ''))]);
}
