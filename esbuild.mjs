// Builds every bundle with esbuild: the extension (node, CommonJS, `vscode` external), the
// webview (browser), and with --tests the reference agent and the test suites.
// Flags: --watch, --production (minified, no tests), --tests, --minify (the extension's and the
// webview's bundles minified as they are packaged, the tests not: what `npm run bench` measures).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests') && !production;

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production || args.has('--minify'),
  logLevel: 'warning',
  legalComments: 'none',
};

// jsonc-parser's `main` is a UMD bundle whose inner requires esbuild cannot follow: take its ES module build.
/** @type {esbuild.BuildOptions} */
const node = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The session library's worker thread; SQLite's WebAssembly module is copied beside it.
  { ...node, entryPoints: ['src/library/worker.ts'], outfile: 'dist/libraryWorker.js' },
  // The checkpoints' folder watches, in a thread with an inotify queue of its own.
  { ...node, entryPoints: ['src/checkpoints/watchWorker.ts'], outfile: 'dist/checkpointsWatch.js' },
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { webview: 'src/webview/main.ts' },
    outdir: 'dist',
  },
  {
    // The chat's stylesheet with everything it imports (VS Code's codicon font and classes: the
    // webview cannot reach the workbench's own copy, and the CSP takes fonts only from the
    // extension), so the page loads one stylesheet instead of a chain of imports.
    ...common,
    entryPoints: { chat: 'media/chat.css', message: 'media/message.css' },
    outdir: 'dist',
    // The codicon font keeps its name (dist/codicon.ttf): no stale hashed copies pile up in dist.
    loader: { '.ttf': 'file' },
    assetNames: '[name]',
  },
  {
    // The syntax highlighter, loaded by the webview with import() when it first needs it: an ES
    // module of its own, so the page's script does not grow by it.
    ...common,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    entryPoints: { highlight: 'src/webview/codeHighlight.ts' },
    outdir: 'dist',
  },
];

if (tests) {
  // Bundles of deleted or renamed tests must not keep running: the test output starts empty.
  rmSync('out', { recursive: true, force: true });
  // Node 20 has no fs.globSync: list the .ts files under a folder, optionally by suffix.
  const entries = (dir, suffix = '.ts') =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith(suffix) && !f.endsWith('.d.ts'))
          .map((f) => join(dir, f))
          .sort()
      : [];
  // node-sqlite3-wasm finds its .wasm beside its own file: tests load it from node_modules.
  const testExternal = ['vscode', 'mocha', 'playwright-core', 'node-sqlite3-wasm'];
  builds.push(
    { ...node, minify: false, entryPoints: ['test/agent/main.ts'], outfile: 'out/test/agent.js' },
    {
      ...node,
      minify: false,
      entryPoints: [
        ...entries('test/unit', '.test.ts'),
        ...entries('test/integration', '.test.ts'),
        ...entries('test/windows', '.test.ts'),
        ...entries('test/vscode'),
        ...entries('test/e2e'),
        ...entries('test/webview'),
        ...entries('test/host'),
        ...entries('test/bench'),
        'test/support/libraryWriter.ts',
        'test/support/marksWriter.ts',
        'test/support/checkpointWindow.ts',
      ],
      outbase: 'test',
      outdir: 'out/test',
      external: testExternal,
    },
    {
      // The Windows lane's unit suite in one bundle: under Wine every file node.exe reads is
      // slow, and one bundle holds once the code each test's own bundle carries again.
      ...node,
      minify: false,
      stdin: {
        contents: entries('test/unit', '.test.ts')
          .map((f) => `import './${f.replace(/\\/g, '/')}';`)
          .join('\n'),
        resolveDir: '.',
        sourcefile: 'windows-unit-suite.ts',
        loader: 'ts',
      },
      outfile: 'out/test/windows/unit.js',
      external: testExternal,
    },
  );
}

mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm', 'dist/node-sqlite3-wasm.wasm');

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching');
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`esbuild: ${builds.length} bundles in ${Date.now() - started} ms`);
}
