// The folder the checkpoints benchmark works on: 50,000 source-like files, 200 MB, in 2,500
// folders (20 files each), generated once into the test cache (not the repository) and reused. Every file's
// content follows from its number, so the benchmark puts back what it changed.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const FILES = 50_000;
const PACKAGES = 50;
const MODULES = 50;
/** Bump when the content changes: the cached folder is then generated again. */
const VERSION = 1;

const WORDS = (
  'const let function return import export from if else for while class interface type async await new this ' +
  'value result items index count error options config request response session folder agent update render ' +
  'parse format string number boolean array object promise callback handler listener event state cache'
).split(' ');

function rng(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** File `i`: its path relative to the folder. */
export function filePath(i: number): string {
  const pkg = i % PACKAGES;
  const mod = Math.floor(i / PACKAGES) % MODULES;
  return `packages/pkg${pkg}/src/mod${mod}/file${i}.ts`;
}

/** File `i`'s content: about 4 KB of code-like text, 1 to 7 KB. */
export function fileContent(i: number): string {
  const r = rng(i + 1);
  const size = 1000 + Math.floor(r() * 6000);
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    const name = `${WORDS[Math.floor(r() * WORDS.length)]}${Math.floor(r() * 100_000).toString(36)}`;
    const words = Array.from({ length: 3 + Math.floor(r() * 8) }, () => WORDS[Math.floor(r() * WORDS.length)]);
    const line = `export function ${name}(${words[0]}: ${words[1]}) { return ${words.slice(2).join(' + ')}; }\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('');
}

/** The generated folder, made if the cache does not hold this version yet. */
export function benchFolder(log: (line: string) => void): string {
  const cache = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
  const folder = join(cache, 'checkpoints-bench', 'repo');
  const marker = join(cache, 'checkpoints-bench', 'generated.json');
  const expected = JSON.stringify({ version: VERSION, files: FILES });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === expected) return folder;
  log(`generating ${FILES.toLocaleString('en-US')} files into ${folder} (once)…`);
  rmSync(folder, { recursive: true, force: true });
  rmSync(marker, { force: true });
  const started = Date.now();
  let bytes = 0;
  const made = new Set<string>();
  for (let i = 0; i < FILES; i++) {
    const dir = join(folder, filePath(i), '..');
    if (!made.has(dir)) mkdirSync(dir, { recursive: true });
    made.add(dir);
    const content = fileContent(i);
    writeFileSync(join(folder, filePath(i)), content);
    bytes += content.length;
  }
  // What a real project ignores, ignored here too (both sides of the comparison skip it).
  writeFileSync(join(folder, '.gitignore'), 'node_modules/\ndist/\n');
  mkdirSync(join(folder, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(folder, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(marker, expected);
  log(`generated ${(bytes / 1e6).toFixed(0)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return folder;
}
