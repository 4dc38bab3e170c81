import * as vscode from 'vscode';
import { AgentRegistry } from './agent/agentHost';
import { ClientFileSystem } from './agent/fileSystem';
import { McpSelector, mcpServersFor } from './agent/mcp';
import { Redactor, redactingLogger } from './agent/redact';
import { resolveAgentEnv, withSignInEnv } from './agent/secrets';
import { OpenSessions } from './chat/openSessions';
import { agentTerminals } from './chat/terminalFeed';
import { SessionCache } from './sessions/cache';
import { ChatPanels } from './ui/chatPanels';
import { registerCommands, type CommandDeps } from './ui/commands';
import { confirmModal } from './ui/messages';
import { continueLastSession } from './ui/continueLast';
import { currentPick, resumeSession } from './ui/resumePicker';
import { SessionLists } from './sessions/sessionLists';
import { SessionsTree, type TreeNode } from './ui/sessionsTree';
import { ChatStatuses } from './chat/status';
import { SessionMarks } from './sessions/marks';
import { currentArchivedPick } from './ui/archivedPicker';
import { FreshLists } from './ui/freshness';
import { defaultAskName, defaultAskRunning, type ManageDeps } from './ui/manageActions';
import { registerManageCommands } from './ui/manageCommands';
import { showNeedsInput } from './ui/needsInput';
import { SessionDecor } from './ui/sessionDecor';
import { SettingsService } from './ui/settings';
import { registerAgentCommands } from './ui/agentCommands';
import { answerNoAgent, watchIgnoredAgents } from './ui/agentSettings';
import { secretLookup } from './ui/signIn';
import { SignInEnvStore } from './ui/signInEnv';
import { AgentStatusBar } from './ui/statusBar';
import { FirstStarts } from './ui/firstStart';
import { AgentContextKeys, contextKey } from './ui/contextKeys';
import { handleUri } from './ui/uriHandler';
import { mayStartAgent, retryListsOnTrust, setTrustPrompt } from './ui/trust';
import { openDocumentText } from './ui/workspaceFiles';
import { LibraryService } from './library/service';
import { SessionLibrary } from './ui/sessionLibrary';
import { registerLibraryCommands } from './ui/libraryCommands';

/** What the extension hands to its own tests. */
export interface AcpTestApi {
  /** How long `activate()` took (also in the log). */
  readonly activationMs: number;
  readonly agents: AgentRegistry;
  readonly lists: SessionLists;
  readonly chats: ChatPanels;
  /** The open chat sessions, which the agents' requests reach. */
  readonly sessions: OpenSessions;
  readonly tree: SessionsTree;
  readonly view: vscode.TreeView<TreeNode>;
  /** Names, client-side archives, hide rules and the activity of open chats, as the views show them. */
  readonly decor: SessionDecor;
  /** What keeps the Sessions view fresh while visible. */
  readonly fresh: FreshLists;
  readonly currentArchivedPick: typeof currentArchivedPick;
  /** Replaces the questions of Rename and of archiving a running chat (input boxes and modals cannot be answered from the API). */
  setManagePrompts(prompts: Partial<Pick<ManageDeps, 'askName' | 'askRunning'>>): void;
  readonly currentPick: typeof currentPick;
  readonly statusBar: AgentStatusBar;
  /** The URI handler, for tests: code-server cannot open a `vscode://` link. */
  handleUri(uri: vscode.Uri): Promise<void>;
  /** Replaces the confirmation of destructive actions (payload mode skips modal dialogs). */
  setConfirm(fn: CommandDeps['confirm']): void;
  /** Replaces the Restricted Mode question before an agent starts. */
  readonly setTrustPrompt: typeof setTrustPrompt;
  /** A context key as the extension last set it (the workbench cannot be asked). */
  readonly contextKey: typeof contextKey;
  /** The session library (kept transcripts), started on first use. */
  readonly library: LibraryService;
}

/** The window's agents, so `deactivate()` can wait for them to stop. */
let running: AgentRegistry | undefined;
/** The library, so `deactivate()` writes what the chats recorded last and lets its worker finish. */
let runningLibrary: SessionLibrary | undefined;

// Wiring only: nothing here spawns a process or reads a file. Agents start on first need.
export function activate(context: vscode.ExtensionContext): AcpTestApi {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('ACP', { log: true });
  // The values to hide of every agent (env, secrets, MCP values): the whole log passes through
  // it, so a secret an agent echoes is masked whichever part of the extension logs it.
  const redactor = new Redactor();
  const log = redactingLogger(channel, redactor);
  const settings = new SettingsService();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  // The agents' requests about a session go straight to the session's chat.
  const sessions = new OpenSessions();
  const lookup = secretLookup(context.secrets);
  const signInEnv = new SignInEnvStore(context.secrets, context.globalState);
  const agents = new AgentRegistry({
    logger: log,
    redactor,
    clientInfo: { name: 'acp-client-vscode', version },
    trace: () => settings.value.trace,
    mayStart: mayStartAgent,
    // Both read secret storage (a round trip to the workbench): side by side.
    prepare: async (config) => {
      const [launch, signedIn] = await Promise.all([resolveAgentEnv(config, lookup), signInEnv.get(config.id)]);
      return withSignInEnv(launch, signedIn);
    },
    handlers: (config) => ({
      ...sessions.handlersFor(config.id),
      fs: new ClientFileSystem({
        rootsFor: (sessionId) => sessions.rootsFor(config.id, sessionId),
        openText: openDocumentText,
        confirmWritesTo: () => settings.value.confirmWritesTo,
        confirmWrite: (request, signal) =>
          sessions.confirmWrite(config.id, request, signal ?? new AbortController().signal),
        allowWrite: () => config.allowFileWrites !== false,
        logger: log,
      }),
      terminals: agentTerminals(config, log, sessions, () => settings.value.terminalShell),
    }),
  });
  running = agents;
  // Kept transcripts live in global storage (not synced); nothing is read until first use.
  const libraryService = new LibraryService({
    workerPath: vscode.Uri.joinPath(context.extensionUri, 'dist', 'libraryWorker.js').fsPath,
    dir: context.globalStorageUri.fsPath,
    log: (m) => log.info(m),
    failed: (m) => void vscode.window.showWarningMessage(`${m} Sessions open and work as without it.`),
    writeFailed: (m) => void vscode.window.showWarningMessage(m),
  });
  const applySettings = () => {
    const s = settings.value;
    for (const p of s.problems) log.warn(p.message);
    agents.update(s.agents, s.defaultAgent);
    void libraryService.configure(s.library);
  };
  applySettings();
  const cache = new SessionCache(
    {
      get: (key) => context.workspaceState.get(key),
      set: async (key, value) => context.workspaceState.update(key, value),
    },
    { logger: log },
  );
  const lists = new SessionLists(agents, cache, log);
  const mcp = mcpServersFor(
    {
      global: () => settings.value.mcpServers,
      perAgent: (id) => settings.value.agents.find((a) => a.id === id)?.mcpServers ?? [],
      lookup,
    },
    new McpSelector(log),
  );
  // What the window's lists show of a session's time: the time before a load or resume.
  const library = new SessionLibrary(libraryService, log, (agentId, sessionId) => {
    for (const list of lists.listsOf(agentId)) {
      const row = list.get(sessionId);
      if (row) return row.updatedAt;
    }
    return undefined;
  });
  // Names and client-side archives are per agent and session, the same in every window: global storage.
  const marks = new SessionMarks(
    { get: (key) => context.globalState.get(key), set: async (key, value) => context.globalState.update(key, value) },
    { logger: log },
  );
  const statuses = new ChatStatuses();
  const chats = new ChatPanels(
    agents,
    sessions,
    context.extensionUri,
    context.workspaceState,
    log,
    mcp,
    {
      statuses,
      marks,
    },
    library,
  );
  const decor = new SessionDecor(marks, statuses, settings, chats);
  const starts = new FirstStarts(agents, context.globalState);
  const tree = new SessionsTree(agents, lists, chats, decor, starts);
  const view = vscode.window.createTreeView('acp.sessions', {
    treeDataProvider: tree,
    showCollapseAll: true,
    canSelectMany: true,
  });
  // Why a list failed, in full above the rows: a row is cut at the view's width.
  tree.problems.onDidChange((message) => (view.message = message));
  const fresh = new FreshLists(view, tree);
  const deps: CommandDeps = { agents, lists, chats, tree, view, settings, log: channel, fresh, confirm: confirmModal };
  const manage: ManageDeps = {
    agents,
    lists,
    chats,
    decor,
    mcpServers: mcp,
    askName: defaultAskName,
    askRunning: defaultAskRunning,
  };
  // With no agent, the view looks for agents written where this window does not read them.
  const ignored = watchIgnoredAgents(context.globalStorageUri);
  const lookForIgnored = () => {
    if (view.visible && settings.value.agents.length === 0) void ignored.check();
  };
  lookForIgnored();
  const statusBar = new AgentStatusBar(agents);
  const contextKeys = new AgentContextKeys(agents);
  context.subscriptions.push(
    channel,
    settings,
    agents,
    cache,
    lists,
    sessions,
    chats,
    starts,
    tree,
    view,
    marks,
    statuses,
    decor,
    fresh,
    showNeedsInput(statuses, view, statusBar),
    ...registerManageCommands(manage),
    settings.onDidChange(applySettings),
    ignored,
    view.onDidChangeVisibility(lookForIgnored),
    settings.onDidChange(lookForIgnored),
    sessions.onDidCreateSession((session) => {
      const id = session.sessionId;
      if (id) decor.markCreated(session.target.agentId, id);
      if (id)
        lists.addCreated(session.target.agentId, {
          sessionId: id,
          cwd: session.target.cwd,
          updatedAt: new Date().toISOString(),
          title: null,
        });
    }),
    ...registerCommands(deps),
    statusBar,
    contextKeys,
    retryListsOnTrust(lists),
    ...registerAgentCommands({ agents, lists, sessions, settings, secrets: context.secrets, signInEnv, log }),
    vscode.commands.registerCommand('acp.resumeSession', () =>
      agents.all.length === 0
        ? answerNoAgent()
        : resumeSession({ agents, lists, chats, settings, decor, library: libraryService }),
    ),
    ...registerLibraryCommands({
      agents,
      lists,
      chats,
      service: libraryService,
      library,
      confirm: (m, a) => deps.confirm(m, a),
    }),
    vscode.window.registerUriHandler({
      handleUri: (uri) => handleUri({ agents, lists, chats, settings, confirm: (m, a) => deps.confirm(m, a) }, uri),
    }),
    vscode.commands.registerCommand('acp.continueLastSession', () =>
      agents.all.length === 0 ? answerNoAgent() : continueLastSession({ agents, lists, chats, settings, decor }),
    ),
    { dispose: () => void agents.stopAll() },
    library,
  );
  runningLibrary = library;
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    agents,
    lists,
    chats,
    sessions,
    tree,
    view,
    decor,
    fresh,
    currentArchivedPick,
    setManagePrompts: (prompts) => Object.assign(manage, prompts),
    currentPick,
    statusBar,
    handleUri: (uri) => handleUri({ agents, lists, chats, settings, confirm: (m, a) => deps.confirm(m, a) }, uri),
    setTrustPrompt,
    contextKey,
    library: libraryService,
    setConfirm: (fn) => {
      deps.confirm = fn;
    },
  };
}

/** VS Code waits for this promise: every agent's group gets SIGTERM, then SIGKILL, before the host goes. */
export async function deactivate(): Promise<void> {
  const agents = running;
  const library = runningLibrary;
  running = undefined;
  runningLibrary = undefined;
  // The library first: the chats' last changes go to its worker before anything else stops.
  await Promise.all([library?.close(), agents?.stopAll()]);
}
