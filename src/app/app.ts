import { dirname, join } from 'node:path';
import { AgentRegistry } from '../agent/agentHost';
import { ClientFileSystem } from '../agent/fileSystem';
import type { Logger } from '../agent/log';
import { McpSelector, mcpServersFor } from '../agent/mcp';
import { Redactor, redactingLogger } from '../agent/redact';
import { resolveAgentEnv, withSignInEnv, type SecretLookup } from '../agent/secrets';
import type { AgentConfig } from '../agent/types';
import { Disposable } from '../base/lifecycle';
import { OpenSessions } from '../chat/openSessions';
import { ChatStatuses } from '../chat/status';
import { agentTerminals } from '../chat/terminalFeed';
import { LibraryService } from '../library/service';
import { SessionCache } from '../sessions/cache';
import { SessionMarks } from '../sessions/marks';
import { FileMarksStore } from '../sessions/marksFile';
import { SessionLists } from '../sessions/sessionLists';
import { GitLocator } from '../platform/gitFind';
import { Git } from '../worktrees/git';
import { WorktreeError } from '../worktrees/errors';
import { Worktrees } from '../worktrees/worktrees';
import { CheckpointKeeper } from './checkpointKeeper';
import { FirstStarts } from './firstStart';
import { RegistryAgents } from './registryAgents';
import type { ShippedRegistry } from '../registry/registrySource';
import type { SettingsSource } from './settings';
import { SignInEnvStore } from './signInEnv';
import { WorktreeRows } from './worktreeRows';
import type { SecretStore, ValueStore } from './stores';
import { TranscriptKeeper } from './transcriptKeeper';

/** What the window gives the app: where to log and keep things, and the questions only it can ask. */
export interface AppPorts {
  /** The log channel; everything written to it passes the window's redactor first. */
  channel: Logger;
  /** The extension's version, told to agents in `initialize`. */
  version: string;
  settings: SettingsSource;
  /** This workspace's values: the first rows last seen per list. */
  workspaceState: ValueStore;
  /** This machine's values: names, archives, first starts, which agents have sign-in values. */
  globalState: ValueStore;
  secrets: SecretStore;
  /** Reads the value of `${secret:NAME}`. */
  secretLookup: SecretLookup;
  /** Asked before any agent process starts (workspace trust). */
  mayStart(config: AgentConfig): Promise<boolean>;
  /** Whether the workspace is trusted: until it is, no git runs in the user's repositories (worktrees). */
  trusted(): boolean;
  /** The text of an open editor for a path, unsaved changes included (it wins over the disk). */
  openText(absPath: string): string | undefined;
  library: {
    /** The bundled worker script (`dist/libraryWorker.js`). */
    workerPath: string;
    /** The extension's global storage directory (not synced). */
    dir: string;
    /** Told once, when the library could not start. */
    failed(message: string): void;
    /** Told once a window, when the library could not save a change. */
    writeFailed(message: string): void;
  };
  /** Told once a window, when checkpoints cannot run (git missing, too old or broken). */
  checkpointsUnavailable(message: string): void;
  /** The copy of the public ACP Registry shipped in the extension. */
  registryShipped?: ShippedRegistry;
  /** The `acp.registry.url` a workspace's settings files hold (ignored, named in the log). */
  workspaceRegistryUrl?: () => Promise<string | undefined>;
}

/**
 * Where the user's names and client-side archives are kept: per agent and session, the same in
 * every window, in files of the global storage `dir` written the moment they are given (see
 * {@link FileMarksStore}), and in the global state as before.
 */
export function marksStore(dir: string, globalState: ValueStore): FileMarksStore {
  return new FileMarksStore(join(dir, 'marks'), {
    get: (key) => globalState.get(key),
    set: async (key, value) => globalState.update(key, value),
  });
}

/**
 * What the extension runs in a window, composed without vscode: the agents (each started on
 * first need), the chats' open sessions, the session lists with their cache, the user's names
 * and archives, the chats' activity, and the session library with what keeps the chats'
 * transcripts in it. `src/ui` adapts it to the workbench (views, panels, commands). Nothing here
 * starts a process or reads a file until it is first asked to.
 */
export class App extends Disposable {
  /** The values to hide of every agent (env, secrets, MCP values), shared with the log. */
  readonly redactor = new Redactor();
  /** The window's log: a secret an agent echoes is masked whichever part of the extension logs it. */
  readonly log: Logger;
  /** The chats' sessions, which the agents' requests about a session reach. */
  readonly sessions: OpenSessions;
  readonly signInEnv: SignInEnvStore;
  readonly agents: AgentRegistry;
  /** The session library: kept transcripts, started on first use. */
  readonly library: LibraryService;
  readonly cache: SessionCache;
  readonly lists: SessionLists;
  /** The MCP servers a chat's session gets from its agent's connection. */
  readonly mcp: ReturnType<typeof mcpServersFor>;
  readonly keeper: TranscriptKeeper;
  readonly marks: SessionMarks;
  readonly statuses: ChatStatuses;
  readonly starts: FirstStarts;
  /** Checkpoints before each prompt and each turn's changes (kept in the global storage). */
  readonly checkpoints: CheckpointKeeper;
  /** Each folder's git worktrees, for worktree sessions. */
  readonly worktrees: WorktreeRows;
  /** The ACP Registry: what Add Agent offers, binary installs, updates, and their clean-up. */
  readonly registry: RegistryAgents;

  constructor(private readonly ports: AppPorts) {
    super();
    const { settings } = ports;
    const log = (this.log = redactingLogger(ports.channel, this.redactor));
    const sessions = (this.sessions = this.register(new OpenSessions()));
    const lookup = ports.secretLookup;
    const signInEnv = (this.signInEnv = new SignInEnvStore(ports.secrets, ports.globalState));
    this.agents = this.register(
      new AgentRegistry({
        logger: log,
        redactor: this.redactor,
        clientInfo: { name: 'acp-client-vscode', version: ports.version },
        trace: () => settings.value.trace,
        mayStart: (config) => ports.mayStart(config),
        // Both read secret storage (a round trip to the workbench): side by side. An agent installed
        // from the registry holds its folder from before it is spawned.
        prepare: async (config) => {
          const [launch, signedIn] = await Promise.all([
            resolveAgentEnv(config, lookup),
            signInEnv.get(config.id),
            this.registry.beforeStart(config),
          ]);
          return withSignInEnv(launch, signedIn);
        },
        handlers: (config) => ({
          ...sessions.handlersFor(config.id),
          fs: new ClientFileSystem({
            rootsFor: (sessionId) => sessions.rootsFor(config.id, sessionId),
            openText: (path) => ports.openText(path),
            confirmWritesTo: () => settings.value.confirmWritesTo,
            confirmWrite: (request, signal) =>
              sessions.confirmWrite(config.id, request, signal ?? new AbortController().signal),
            allowWrite: () => config.allowFileWrites !== false,
            logger: log,
          }),
          terminals: agentTerminals(config, log, sessions, () => settings.value.terminalShell),
        }),
      }),
    );
    // Kept transcripts live in global storage (not synced); nothing is read until first use.
    this.library = new LibraryService({
      workerPath: ports.library.workerPath,
      dir: ports.library.dir,
      log: (m) => log.info(m),
      failed: (m) => ports.library.failed(m),
      writeFailed: (m) => ports.library.writeFailed(m),
    });
    // One git finder for the window: checkpoints and worktrees run the same git.
    const git = new GitLocator({ configured: settings.value.checkpoints.gitPath });
    this.checkpoints = this.register(
      new CheckpointKeeper({
        git,
        storageDir: ports.library.dir,
        // Bundled beside the library's worker.
        watchWorker: join(dirname(ports.library.workerPath), 'checkpointsWatch.js'),
        settings,
        log,
        unavailable: (m) => ports.checkpointsUnavailable(m),
      }),
    );
    this.worktrees = this.register(
      new WorktreeRows(new Worktrees(new Git({ locator: git, trusted: () => ports.trusted() })), (folder, e) => {
        // Most folders are no repository, or have git missing: said when the user asks for a worktree.
        if (!(e instanceof WorktreeError) || e.problem === 'failed') log.warn(`worktrees of ${folder}: ${String(e)}`);
      }),
    );
    this.applySettings();
    this.register(settings.onDidChange(() => this.applySettings()));
    const workspaceState = ports.workspaceState;
    this.cache = this.register(
      new SessionCache(
        { get: (key) => workspaceState.get(key), set: async (key, value) => workspaceState.update(key, value) },
        { logger: log },
      ),
    );
    const lists = (this.lists = this.register(new SessionLists(this.agents, this.cache, log)));
    this.mcp = mcpServersFor(
      {
        global: () => settings.value.mcpServers,
        perAgent: (id) => settings.value.agents.find((a) => a.id === id)?.mcpServers ?? [],
        lookup,
      },
      new McpSelector(log),
    );
    // What the window's lists show of a session's time: the time before a load or resume.
    this.keeper = this.register(
      new TranscriptKeeper(this.library, log, (agentId, sessionId) => {
        for (const list of lists.listsOf(agentId)) {
          const row = list.get(sessionId);
          if (row) return row.updatedAt;
        }
        return undefined;
      }),
    );
    const globalState = ports.globalState;
    this.marks = this.register(
      new SessionMarks(this.register(marksStore(ports.library.dir, globalState)), { logger: log }),
    );
    this.statuses = this.register(new ChatStatuses());
    this.starts = this.register(new FirstStarts(this.agents, globalState));
    this.registry = this.register(
      new RegistryAgents({
        agents: this.agents,
        settings,
        log,
        storageDir: ports.library.dir,
        shipped: ports.registryShipped,
        memory: globalState,
        workspaceValue: ports.workspaceRegistryUrl,
      }),
    );
    // A session created here is listed at once, before its agent lists it.
    this.register(
      sessions.onDidCreateSession((session) => {
        const id = session.sessionId;
        if (id)
          lists.addCreated(session.target.agentId, {
            sessionId: id,
            cwd: session.target.cwd,
            updatedAt: new Date().toISOString(),
            title: null,
          });
      }),
    );
    this.register({ dispose: () => void this.agents.stopAll() });
  }

  private applySettings(): void {
    const s = this.ports.settings.value;
    for (const p of s.problems) this.log.warn(p.message);
    this.agents.update(s.agents, s.defaultAgent);
    void this.library.configure(s.library);
  }

  /**
   * The window is going: what the chats recorded last goes to the library's worker, which then
   * closes its file, while every agent's group gets SIGTERM, then SIGKILL.
   */
  close(): Promise<void> {
    return Promise.all([this.keeper.close(), this.agents.stopAll()]).then(() => undefined);
  }
}
