// Starts code-server (a real VS Code server) for one test run, with a fresh profile, and
// builds the URLs that load this repository's extension in development mode.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostPaths, repoRoot } from './paths';

/** Settings that keep a fresh workbench quiet: no welcome page, tips, trust prompts or AI. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export interface CodeServerOptions {
  /** User settings merged over QUIET_SETTINGS (for example `acp.agents`). */
  settings?: Record<string, unknown>;
  /**
   * The server's Machine settings (where a remote window reads `machine`-scoped settings such
   * as `acp.agents`); default the same as `settings`.
   */
  machineSettings?: Record<string, unknown>;
  /** Extra environment; it reaches the extension host (PATH does not: it is rebuilt). */
  env?: Record<string, string>;
  /** Default false: pass --disable-workspace-trust. True keeps trust on (Restricted Mode). */
  workspaceTrust?: boolean;
  /** Stream code-server's output to stderr as it comes. */
  verbose?: boolean;
  /** A fixed port (the demo's PORT); default a free one. */
  port?: number;
  /**
   * A packaged extension to install before starting. The workbench URLs then load it as a
   * user has it, not from this repository in development mode, and modal dialogs show.
   */
  vsix?: string;
}

export type PayloadEntry = [string, string];

export interface CodeServer {
  port: number;
  /** The workbench URL for a folder or a .code-workspace file, loading our extension. */
  url(target?: string, payloadExtras?: PayloadEntry[]): string;
  /** A path on this machine as the workbench's remote URI (for extensionTestsPath...). */
  remoteUri(absPath: string): string;
  /** Milliseconds from spawn to "HTTP server listening on". */
  bootMs: number;
  userDataDir: string;
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the process group we started (code-server forks its extension host and pty host). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const paths = hostPaths();
  const tmp = mkdtempSync(join(tmpdir(), 'acp-cs-'));
  const userDataDir = join(tmp, 'udd');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
  const settings = JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2);
  writeFileSync(join(userDataDir, 'User', 'settings.json'), settings);
  // code-server is a remote-like window: settings of `machine` scope (acp.agents) are read
  // from the Machine settings of the server, not from the User settings of the browser.
  const machine = options.machineSettings ? JSON.stringify(options.machineSettings, null, 2) : settings;
  writeFileSync(join(userDataDir, 'Machine', 'settings.json'), machine);
  const port = options.port ?? (await freePort());
  const env = {
    ...process.env,
    ...options.env,
    PATH: `${join(paths.node24Dir, 'bin')}:${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: join(tmp, 'xdgc'),
    XDG_DATA_HOME: join(tmp, 'xdgd'),
    XDG_CACHE_HOME: join(tmp, 'xdgcache'),
  };
  const profile = ['--user-data-dir', userDataDir, '--extensions-dir', join(tmp, 'ext')];
  if (options.vsix) {
    const installed = spawnSync(paths.codeServer, [...profile, '--install-extension', options.vsix, '--force'], {
      cwd: tmp,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (installed.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(
        `code-server could not install ${options.vsix} (${installed.status ?? installed.signal}):\n${installed.stdout}${installed.stderr}`,
      );
    }
  }
  const args = [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    ...profile,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  // The smoke-test driver honours the development payload, and also skips modal dialogs and
  // hides toasts: a packaged extension runs without it, as a user has it.
  if (!options.vsix) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (!options.workspaceTrust) args.push('--disable-workspace-trust');

  const started = Date.now();
  const child = spawn(paths.codeServer, args, {
    cwd: tmp,
    // Own process group, so stop() reaches the server's children and nothing else.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let out = '';
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    out += text;
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
    if (options.verbose) process.stderr.write(text);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    signalGroup(child, 'SIGTERM');
    const grace = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5000).unref());
    if ((await Promise.race([exited(child), grace])) === 'timeout') {
      signalGroup(child, 'SIGKILL');
      await exited(child);
    }
    // The extension host may outlive the server briefly; a second signal to the group is harmless.
    signalGroup(child, 'SIGKILL');
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('code-server did not listen within 60 s')), 60_000);
      const check = () => {
        if (out.includes('HTTP server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}) before listening`));
      });
    });
  } catch (e) {
    await stop();
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- code-server output ---\n${out.slice(-4000)}`);
  }
  const bootMs = Date.now() - started;

  const authority = `127.0.0.1:${port}`;
  const remoteUri = (absPath: string) => `vscode-remote://${authority}${absPath}`;
  return {
    port,
    bootMs,
    userDataDir,
    remoteUri,
    output: () => out,
    stop,
    url(target, payloadExtras = []) {
      // The payload is honoured only with enable-smoke-test-driver and an authority equal to
      // the page's host:port.
      const payload: PayloadEntry[] = [
        ['extensionDevelopmentPath', remoteUri(repoRoot())],
        ['skipWelcome', 'true'],
        ...payloadExtras,
      ];
      const query = new URLSearchParams();
      if (target) query.set(target.endsWith('.code-workspace') ? 'workspace' : 'folder', target);
      if (!options.vsix) query.set('payload', JSON.stringify(payload));
      return `http://${authority}/?${query.toString()}`;
    },
  };
}
