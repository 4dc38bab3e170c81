// Command line of the reference agent. Real ACP adapters differ in paging, cursors, error codes
// and timing; each switch imitates one such difference so the client can be tested against it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export type TitleOverride = 'null' | 'empty' | 'long' | 'multiline' | 'hostile';
export type TitleStyle = 'normal' | 'null' | 'long' | 'multiline' | 'hostile' | 'mixed';
export type InvalidCursorCode = -32602 | -32603 | 'restart';
export type Capability =
  'load' | 'list' | 'resume' | 'close' | 'delete' | 'additionalDirectories' | 'title' | 'archive' | 'fork';
export const garbageKinds = [
  'not-json',
  'not-jsonrpc',
  'unknown-id',
  'unknown-kind',
  'unknown-session',
  'no-session',
  'reserved-method',
  'nested',
] as const;
export type GarbageKind = (typeof garbageKinds)[number];

export interface ServeOptions {
  store: string;
  pageSize: number;
  without: Set<Capability>;
  crashAfter?: number;
  crashOn: Set<string>;
  hang: Set<string>;
  /** Kinds of bad input to mix into stdout (`--garbage` is all but `unknown-session`). */
  garbage: Set<GarbageKind>;
  repeatCursor: boolean;
  ignoreCursor: boolean;
  emptyPages: boolean;
  invalidCursorCode: InvalidCursorCode;
  unknownSessionCode: number;
  titles?: TitleOverride;
  lateUpdates: boolean;
  delay: number;
  loadDelay: number;
  /** A load marks the session updated (`--touch-on-load`), as Claude Code does. */
  touchOnLoad: boolean;
  /** Chunks the long reply is streamed in (`--reply-chunks`); 1 sends it whole. */
  replyChunks: number;
  startedFile?: string;
  record?: string;
  badListShapes: boolean;
  hugeMessage: boolean;
  hideEmpty: boolean;
  /** Pages answered before every later `session/list` with a cursor fails (`--list-fail-after`). */
  listFailAfter?: number;
  authRequired: boolean;
  /** Offer a `type: "terminal"` auth method (`--login`); sign-in is a marker in the store. */
  authTerminal: boolean;
  /**
   * Offer, to every client, an agent-typed method whose command is in `_meta["terminal-auth"]`
   * (`--auth-terminal-meta`), as Copilot CLI does: lists work signed out, sessions do not, and
   * `authenticate` with it fails; the command signs in like the terminal method.
   */
  authTerminalMeta: boolean;
  /** Session methods fail with -32000 unless `ACP_REF_KEY` in the environment equals this. */
  authEnv?: string;
  /** Advertise `mcpCapabilities.http` / `.sse`. */
  mcpHttp: boolean;
  mcpSse: boolean;
  /** Instead of serving: mark the store signed in and exit 0 (what the terminal method runs). */
  login: boolean;
  /** Run the agent as a child of this process, as adapters started through npx or a launcher do. */
  launcher: boolean;
  /** Exit 0 right after the initialize response is written (`--exit-after-initialize`). */
  exitAfterInitialize: boolean;
  /** Echo `ACP_REF_KEY` and MCP env/header values to stderr and on the wire (`--echo-key`), as careless agents do. */
  echoKey: boolean;
  /** Exit 3 after sending this many updates of a `session/load` replay, once per store (`--crash-after-replayed`). */
  crashAfterReplayed?: number;
  /**
   * Echo `ACP_REF_KEY` on every route a log line can take (`--echo-key-routes`): a response id,
   * a method name, a config option's id, a stderr line split across reads, a long list `_meta`.
   */
  echoKeyRoutes: boolean;
  /** Print text on stdout once ready and for every answer to nothing (`--stdout-text`). */
  stdoutText: boolean;
  /** Write stdout one byte per write (`--byte-writes`). */
  byteWrites: boolean;
  /** Keep running when stdin ends, and ignore SIGTERM (`--ignore-eof`). */
  ignoreEof: boolean;
  /** Every switch, from argv and the environment, for relaunching as a child. */
  args: string[];
}

export interface SeedOptions {
  store: string;
  cwds: string[];
  sessions: number;
  turns: number;
  titleStyle: TitleStyle;
  /** Sessions marked as Claude Code marks a side chain (`_meta.claudeCode.isSidechain`). */
  sidechains: number;
  /** Sessions marked as a sub-agent's thread (`_meta.codex.source: "subAgent"`). */
  subagents: number;
  /** Sessions with no user message (no turn, no title). */
  empty: number;
}

export interface DemoOptions {
  /** Where the demo's folders, workspace file and store go. */
  root: string;
  /** The time the ages are counted back from (milliseconds); now by default. */
  now?: number;
}

export type Command =
  | { kind: 'serve'; options: ServeOptions }
  | { kind: 'seed'; options: SeedOptions }
  | { kind: 'demo'; options: DemoOptions }
  | { kind: 'help' };

export const USAGE = `acp-reference-agent: a scripted ACP agent over stdio for tests and demos.

  node out/test/agent.js [--store DIR] [switches]
  node out/test/agent.js seed --store DIR --cwd ABS [--cwd ABS2 ...] --sessions N --turns M
                              [--title-style normal|null|long|multiline|hostile|mixed]
                              [--sidechains N] [--subagents N] [--empty N]
  node out/test/agent.js demo --root ABS [--now ISO-TIME]
                              the demo: two project folders, a workspace file naming both
                              and a store of realistic sessions about them (prints JSON)

Switches (also read from $ACP_REF_AGENT_ARGS, split on whitespace):
  --page-size N                 session/list page size, 1..5000 (default 50)
  --no-load --no-list --no-resume --no-close --no-delete
                                withhold the capability and refuse the method
  --no-additional-directories   do not advertise sessionCapabilities.additionalDirectories
  --no-title --no-archive --no-fork
                                withhold session/set_title, session/archive and
                                session/unarchive (and the archived filter of session/list),
                                session/fork (unstable methods, advertised by default)
  --crash-after K               exit 3 when the K-th incoming JSON-RPC message arrives
                                (it is recorded but not answered)
  --crash-on METHOD             exit 3 when METHOD arrives
  --crash-after-replayed K      exit 3 after sending K updates of a session/load replay, the
                                first time only (a marker in the store remembers it)
  --hang METHOD                 never answer METHOD (repeatable)
  --garbage                     bad lines after initialize and between list pages: not JSON,
                                JSON that is not JSON-RPC, a response to an unknown id, an
                                unknown update kind, JSON nested 20,000 deep
  --garbage-kind KIND           only this kind (repeatable): not-json, not-jsonrpc, unknown-id,
                                unknown-kind, unknown-session (an update for a session nobody
                                opened), no-session (an update without a session id),
                                reserved-method (a method name the client keeps for itself),
                                nested
  --repeat-cursor               every list page returns the same nextCursor
  --ignore-cursor               every list request returns the first page with a nextCursor
  --empty-pages                 filter by cwd after paging over the whole store
  --invalid-cursor-code C       -32602 (default), -32603 or restart
  --list-fail-after N           session/list with a cursor fails (-32010) after N pages answered
  --unknown-session-code C      -32002 (default) or -32603
  --titles null|empty|long|multiline|hostile
                                override the titles session/list returns
  --late-updates                send half of a load replay after the load response
  --delay MS                    wait before each outgoing message
  --load-delay MS               wait before a load replay starts
  --touch-on-load               a load moves the session's updatedAt to now (as Claude Code
                                does); only session/list tells
  --reply-chunks N              stream the long reply in N chunks (default 1; with --delay
                                they come at a model's pace)
  --started-file PATH           append this pid to PATH at start
  --record FILE                 append each received request's and notification's method and
                                params to FILE, one JSON line each
  --bad-list-shapes             mix malformed entries into session/list results
  --huge-message                answer the first session/list with a message over 33 MiB
  --hide-empty                  list only sessions that have at least one turn
  --auth-required               offer an auth method; session methods fail with -32000 until
                                authenticate is called
  --auth-terminal               offer a terminal auth method (args ["--login"]) to clients that
                                announce auth.terminal; session methods fail with -32000 until
                                the store is signed in
  --auth-terminal-meta          offer a method with no type whose command is in _meta["terminal-auth"]
                                (this agent with --login), to every client, as Copilot CLI does;
                                session/list works signed out, other session methods fail with
                                -32000 until the store is signed in; authenticate with it fails
  --auth-env KEY                session methods fail with -32000 unless $ACP_REF_KEY equals KEY
  --mcp-http --mcp-sse          advertise mcpCapabilities.http / .sse
  --login                       mark the store signed in and exit 0 (the terminal method)
  --launcher                    run the agent as a child process (like npx), relaying its exit
  --exit-after-initialize       exit 0 as soon as the initialize response is written
  --echo-key                    echo $ACP_REF_KEY and received MCP env and header values to
                                stderr, in auth errors and in session/list's _meta
  --echo-key-routes             echo $ACP_REF_KEY as a response id, a method name, the id of a
                                malformed config option (session/new), across two stderr reads
                                of a long line, and 2,500 times in session/list's _meta
  --stdout-text                 print a line of text on stdout after initialize, and again for
                                every answer to nothing (id null) it reads
  --byte-writes                 write stdout one byte per write
  --ignore-eof                  keep running when stdin ends, and ignore SIGTERM
Prompt words for hostile turns:
  flood read /abs/path N        stop reading stdin, then ask for the file N times at once
  flood permission N            N permission requests at once
  flood text N                  N lines that are not JSON
  unfinished N [/abs/file]      an N-byte line that never ends, one byte per write (then the
                                file is written)
  nested                        a tool call whose raw input is nested 20,000 deep
  elicit url hostile            an address that shows one site and opens another
Prompt words for files changed outside fs/* (run first, in the order given):
  disk write /abs/path          write the file from the agent's own process (a tool call names it)
  disk delete /abs/path         delete it; disk rename /abs/from /abs/to moves it
  disk readonly /abs/path       make it read-only
  shell write /abs/path         write it with a command run in a client terminal (node -e)
  wait for /abs/path            wait until the file exists (a test changes files mid-turn)
Default store: $ACP_REF_AGENT_STORE or a new temporary directory.`;

export class UsageError extends Error {}

const capabilitySwitches: Record<string, Capability> = {
  '--no-load': 'load',
  '--no-list': 'list',
  '--no-resume': 'resume',
  '--no-close': 'close',
  '--no-delete': 'delete',
  '--no-additional-directories': 'additionalDirectories',
  '--no-title': 'title',
  '--no-archive': 'archive',
  '--no-fork': 'fork',
};

const titleOverrides = ['null', 'empty', 'long', 'multiline', 'hostile'];
const titleStyles = ['normal', 'null', 'long', 'multiline', 'hostile', 'mixed'];

/** Splits `ACP_REF_AGENT_ARGS` so a VS Code `acp.agents` entry can set switches through `env`. */
export function argsFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env.ACP_REF_AGENT_ARGS ?? '').split(/\s+/).filter((a) => a.length > 0);
}

export function parseCommand(argv: string[], env: NodeJS.ProcessEnv): Command {
  if (argv.includes('--help') || argv.includes('-h')) {
    return { kind: 'help' };
  }
  // The environment's switches are for serving (an `acp.agents` entry sets them); seeding from
  // a test process that happens to carry them must not fail.
  if (argv[0] === 'seed') {
    return { kind: 'seed', options: parseSeed(argv.slice(1), env) };
  }
  if (argv[0] === 'demo') {
    return { kind: 'demo', options: parseDemo(argv.slice(1)) };
  }
  return { kind: 'serve', options: parseServe([...argv, ...argsFromEnv(env)], env) };
}

function defaultStore(env: NodeJS.ProcessEnv): string {
  return env.ACP_REF_AGENT_STORE || mkdtempSync(join(tmpdir(), 'acp-ref-agent-'));
}

function integer(name: string, raw: string | undefined, min: number, max: number): number {
  const value = Number(raw);
  if (raw === undefined || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${name} needs an integer from ${min} to ${max}, got ${raw ?? 'nothing'}`);
  }
  return value;
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly string[]): T {
  if (raw === undefined || !allowed.includes(raw)) {
    throw new UsageError(`${name} needs one of ${allowed.join(', ')}, got ${raw ?? 'nothing'}`);
  }
  return raw as T;
}

function parseServe(args: string[], env: NodeJS.ProcessEnv): ServeOptions {
  let store: string | undefined;
  const options: Omit<ServeOptions, 'store'> = {
    pageSize: 50,
    without: new Set(),
    crashOn: new Set(),
    hang: new Set(),
    garbage: new Set(),
    repeatCursor: false,
    ignoreCursor: false,
    emptyPages: false,
    invalidCursorCode: -32602,
    unknownSessionCode: -32002,
    lateUpdates: false,
    delay: 0,
    loadDelay: 0,
    touchOnLoad: false,
    replyChunks: 1,
    badListShapes: false,
    hugeMessage: false,
    hideEmpty: false,
    authRequired: false,
    authTerminal: false,
    authTerminalMeta: false,
    login: false,
    mcpHttp: false,
    mcpSse: false,
    launcher: false,
    exitAfterInitialize: false,
    echoKey: false,
    echoKeyRoutes: false,
    stdoutText: false,
    byteWrites: false,
    ignoreEof: false,
    args,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = (): string | undefined => args[++i];
    if (arg in capabilitySwitches) {
      options.without.add(capabilitySwitches[arg]);
      continue;
    }
    switch (arg) {
      case '--store':
        store = value();
        if (!store) throw new UsageError('--store needs a directory');
        break;
      case '--page-size':
        options.pageSize = integer(arg, value(), 1, 5000);
        break;
      case '--crash-after':
        options.crashAfter = integer(arg, value(), 1, Number.MAX_SAFE_INTEGER);
        break;
      case '--crash-after-replayed':
        options.crashAfterReplayed = integer(arg, value(), 0, Number.MAX_SAFE_INTEGER);
        break;
      case '--crash-on':
      case '--hang': {
        const method = value();
        if (!method) throw new UsageError(`${arg} needs a method name`);
        (arg === '--hang' ? options.hang : options.crashOn).add(method);
        break;
      }
      case '--garbage':
        for (const kind of garbageKinds) if (kind !== 'unknown-session') options.garbage.add(kind);
        break;
      case '--garbage-kind':
        options.garbage.add(oneOf<GarbageKind>(arg, value(), garbageKinds));
        break;
      case '--repeat-cursor':
        options.repeatCursor = true;
        break;
      case '--ignore-cursor':
        options.ignoreCursor = true;
        break;
      case '--empty-pages': {
        options.emptyPages = true;
        // An optional number is accepted for compatibility; paging already spans the whole store.
        if (args[i + 1] !== undefined && /^\d+$/.test(args[i + 1])) i++;
        break;
      }
      case '--invalid-cursor-code': {
        const raw = oneOf<string>(arg, value(), ['-32602', '-32603', 'restart']);
        options.invalidCursorCode = raw === 'restart' ? 'restart' : (Number(raw) as -32602 | -32603);
        break;
      }
      case '--unknown-session-code':
        options.unknownSessionCode = Number(oneOf<string>(arg, value(), ['-32002', '-32603']));
        break;
      case '--titles':
        options.titles = oneOf<TitleOverride>(arg, value(), titleOverrides);
        break;
      case '--late-updates':
        options.lateUpdates = true;
        break;
      case '--list-fail-after':
        options.listFailAfter = integer(arg, value(), 0, Number.MAX_SAFE_INTEGER);
        break;
      case '--delay':
        options.delay = integer(arg, value(), 0, 600_000);
        break;
      case '--load-delay':
        options.loadDelay = integer(arg, value(), 0, 600_000);
        break;
      case '--touch-on-load':
        options.touchOnLoad = true;
        break;
      case '--reply-chunks':
        options.replyChunks = integer(arg, value(), 1, 1_000_000);
        break;
      case '--started-file':
        options.startedFile = value();
        if (!options.startedFile) throw new UsageError('--started-file needs a path');
        break;
      case '--record':
        options.record = value();
        if (!options.record) throw new UsageError('--record needs a path');
        break;
      case '--bad-list-shapes':
        options.badListShapes = true;
        break;
      case '--huge-message':
        options.hugeMessage = true;
        break;
      case '--hide-empty':
        options.hideEmpty = true;
        break;
      case '--auth-required':
        options.authRequired = true;
        break;
      case '--auth-terminal':
        options.authTerminal = true;
        break;
      case '--auth-terminal-meta':
        options.authTerminalMeta = true;
        break;
      case '--auth-env':
        options.authEnv = value();
        if (!options.authEnv) throw new UsageError('--auth-env needs a key');
        break;
      case '--login':
        options.login = true;
        break;
      case '--mcp-http':
        options.mcpHttp = true;
        break;
      case '--mcp-sse':
        options.mcpSse = true;
        break;
      case '--launcher':
        options.launcher = true;
        break;
      case '--exit-after-initialize':
        options.exitAfterInitialize = true;
        break;
      case '--echo-key':
        options.echoKey = true;
        break;
      case '--echo-key-routes':
        options.echoKeyRoutes = true;
        break;
      case '--stdout-text':
        options.stdoutText = true;
        break;
      case '--byte-writes':
        options.byteWrites = true;
        break;
      case '--ignore-eof':
        options.ignoreEof = true;
        break;
      default:
        throw new UsageError(`unknown argument ${arg}`);
    }
  }
  return { store: store ?? defaultStore(env), ...options };
}

function parseSeed(args: string[], env: NodeJS.ProcessEnv): SeedOptions {
  const options: SeedOptions = {
    store: '',
    cwds: [],
    sessions: 0,
    turns: 0,
    titleStyle: 'normal',
    sidechains: 0,
    subagents: 0,
    empty: 0,
  };
  let store: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = (): string | undefined => args[++i];
    switch (arg) {
      case '--store':
        store = value();
        break;
      case '--cwd': {
        const cwd = value();
        if (!cwd || !isAbsolute(cwd)) throw new UsageError('--cwd needs an absolute path');
        options.cwds.push(cwd);
        break;
      }
      case '--sessions':
        options.sessions = integer(arg, value(), 0, 10_000_000);
        break;
      case '--turns':
        options.turns = integer(arg, value(), 0, 1_000_000);
        break;
      case '--title-style':
        options.titleStyle = oneOf<TitleStyle>(arg, value(), titleStyles);
        break;
      case '--sidechains':
      case '--subagents':
      case '--empty':
        options[arg.slice(2) as 'sidechains' | 'subagents' | 'empty'] = integer(arg, value(), 0, 1_000_000);
        break;
      default:
        throw new UsageError(`seed: unknown argument ${arg}`);
    }
  }
  if (options.cwds.length === 0) throw new UsageError('seed needs at least one --cwd');
  options.store = store ?? defaultStore(env);
  return options;
}

function parseDemo(args: string[]): DemoOptions {
  let root: string | undefined;
  let now: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[++i];
    if (arg === '--root') {
      if (!value || !isAbsolute(value)) throw new UsageError('--root needs an absolute path');
      root = value;
    } else if (arg === '--now') {
      now = value === undefined ? NaN : Date.parse(value);
      if (!Number.isFinite(now)) throw new UsageError(`--now needs an ISO time, got ${value ?? 'nothing'}`);
    } else {
      throw new UsageError(`demo: unknown argument ${arg}`);
    }
  }
  if (!root) throw new UsageError('demo needs --root');
  return { root, ...(now !== undefined ? { now } : {}) };
}
