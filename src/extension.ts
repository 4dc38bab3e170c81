import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentRegistry } from './agent/agentHost';
import { App } from './app/app';
import type { CheckpointKeeper } from './app/checkpointKeeper';
import type { RegistryAgents } from './app/registryAgents';
import { PendingOpens } from './app/pendingOpens';
import type { OpenSessions } from './chat/openSessions';
import type { LibraryService } from './library/service';
import type { SessionLists } from './sessions/sessionLists';
import { watchIgnoredAgents } from './ui/agents/agentSettings';
import { agentCommands } from './ui/agents/agentCommands';
import { secretLookup } from './ui/agents/signIn';
import { AgentStatusBar } from './ui/agents/statusBar';
import { mayStartAgent, retryListsOnTrust, setTrustPrompt } from './ui/agents/trust';
import { ChatPanels } from './ui/chat/chatPanels';
import type { ChatPanel } from './ui/chat/chatPanel';
import { openCarried } from './ui/chat/carriedOpen';
import { chatCommands } from './ui/chat/chatCommands';
import { CheckpointContents } from './ui/checkpoints/changesEditor';
import { folderStatsNote, sessionStatsNote } from './ui/library/sessionStats';
import { changesNote, checkpointCommands, type SessionRef, sessionFolders } from './ui/checkpoints/checkpointCommands';
import { restoreCommands } from './ui/checkpoints/restoreCommands';
import { forkCommands } from './ui/worktrees/forkCommands';
import { readWorktreesOnTrust, worktreeCommands } from './ui/worktrees/worktreeCommands';
import { WorktreeContents } from './ui/worktrees/worktreeContents';
import { strongestActivity } from './ui/worktrees/worktreeItem';
import { showNeedsInput } from './ui/chat/needsInput';
import { registerCommands } from './ui/commands';
import { AgentContextKeys, contextKey } from './ui/contextKeys';
import { handoffCommands, handoffNote, HandoffLinks } from './ui/chat/handoff';
import { libraryCommands } from './ui/library/libraryCommands';
import { currentArchivedPick } from './ui/manage/archivedPicker';
import { defaultAskName, defaultAskRunning, type ManageDeps } from './ui/manage/manageActions';
import { manageCommands } from './ui/manage/manageCommands';
import { confirmModal, type Confirm } from './ui/messages';
import { pickerCommands } from './ui/pickers/pickerCommands';
import { currentPick } from './ui/pickers/resumePicker';
import { listenToSteps } from './base/steps';
import { SessionDecor } from './ui/sessionDecor';
import { FreshLists } from './ui/sessionsView/freshLists';
import { sessionCommands, type SessionCommandDeps } from './ui/sessionsView/sessionCommands';
import { SessionsTree, type TreeNode } from './ui/sessionsView/sessionsTree';
import type { SessionNode } from './ui/sessionsView/treeNodes';
import { SettingsService } from './ui/settings';
import { handleUri } from './ui/uriHandler';
import { workspaceRegistryUrl, writeEntryFields } from './ui/agents/agentSettings';
import { DEFAULT_REGISTRY_URL } from './registry/registrySource';

/** The date of the registry copy in media/registry (see its source.json). */
const SHIPPED_REGISTRY_DATE = '2026-02-07T18:22:39Z';
import { openDocumentText } from './ui/workspaceFiles';

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
  setConfirm(fn: Confirm): void;
  /** Replaces the Restricted Mode question before an agent starts. */
  readonly setTrustPrompt: typeof setTrustPrompt;
  /** A context key as the extension last set it (the workbench cannot be asked). */
  readonly contextKey: typeof contextKey;
  /** The session library (kept transcripts), started on first use. */
  readonly library: LibraryService;
  /** The chats' checkpoints and each turn's changes. */
  readonly checkpoints: CheckpointKeeper;
  /** Sessions carried to the window that opens their folder. */
  readonly pendingOpens: PendingOpens;
  /** What activation does with them: opens the one of this window's folders, if any. */
  openCarried(): Promise<ChatPanel | undefined>;
  /** Hears the steps of opening a chat, with their times (the benchmarks). */
  readonly listenToSteps: typeof listenToSteps;
  /** The ACP Registry: Add Agent's list, installs, updates. */
  readonly registry: RegistryAgents;
}

/** What the window runs, so `deactivate()` can wait for its agents and its library. */
let running: App | undefined;

// Wiring only: nothing here spawns a process or reads a file. Agents start on first need.
export function activate(context: vscode.ExtensionContext): AcpTestApi {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel('ACP', { log: true });
  const settings = new SettingsService();
  const app = new App({
    channel,
    version: String(context.extension.packageJSON.version ?? '0.0.0'),
    settings,
    workspaceState: context.workspaceState,
    globalState: context.globalState,
    secrets: context.secrets,
    secretLookup: secretLookup(context.secrets),
    mayStart: mayStartAgent,
    trusted: () => vscode.workspace.isTrusted,
    openText: openDocumentText,
    library: {
      workerPath: vscode.Uri.joinPath(context.extensionUri, 'dist', 'libraryWorker.js').fsPath,
      dir: context.globalStorageUri.fsPath,
      failed: (m) => void vscode.window.showWarningMessage(`${m} Sessions open and work as without it.`),
      writeFailed: (m) => void vscode.window.showWarningMessage(m),
    },
    checkpointsUnavailable: (m) => void vscode.window.showWarningMessage(m),
    registryShipped: {
      file: vscode.Uri.joinPath(context.extensionUri, 'media', 'registry', 'registry.json').fsPath,
      // Built from the registry's repository at this date (media/registry/source.json).
      date: Date.parse(SHIPPED_REGISTRY_DATE),
      url: DEFAULT_REGISTRY_URL,
    },
    workspaceRegistryUrl,
  });
  running = app;
  const { agents, sessions, lists, library, keeper, marks, statuses, starts, log } = app;
  const chats = new ChatPanels(
    agents,
    sessions,
    context.extensionUri,
    context.workspaceState,
    log,
    app.mcp,
    {
      statuses,
      marks,
    },
    keeper,
    {
      beforePrompt: app.checkpoints.beforePrompt,
      canRestore: () => app.checkpoints.enabled,
      prepare: app.checkpoints.prepare,
    },
  );
  const decor = new SessionDecor(marks, statuses, settings, chats);
  const tree = new SessionsTree(
    agents,
    lists,
    chats,
    decor,
    starts,
    {
      row: (agentId, row) =>
        Promise.all([
          changesNote(app.checkpoints, row),
          sessionStatsNote(app.library, agentId, row.sessionId),
          handoffNote({ agents, chats, library }, { agentId, sessionId: row.sessionId }),
          folderStatsNote(app.library, row.cwd),
        ]),
      folder: (cwd) => folderStatsNote(app.library, cwd),
    },
    {
      rows: app.worktrees,
      activity: (path) =>
        strongestActivity(
          chats.all
            .filter((c) => c.session.target.cwd === path && c.session.sessionId)
            .map((c) => statuses.activity(c.session.target.agentId, c.session.sessionId!)),
        ),
    },
  );
  const view = vscode.window.createTreeView('acp.sessions', {
    treeDataProvider: tree,
    showCollapseAll: true,
    canSelectMany: true,
  });
  // Why a list failed, in full above the rows: a row is cut at the view's width.
  tree.problems.onDidChange((message) => (view.message = message));
  const fresh = new FreshLists(view, tree);
  // An update waiting for an agent's next start is written to its entry by the settings writer.
  app.registry.setWriter(writeEntryFields);
  tree.setUpdateWords((host) => {
    const update = app.registry.updateOf(host);
    return update ? `update to ${update.version}` : undefined;
  });
  const pending = new PendingOpens(join(context.globalStorageUri.fsPath, 'pending-opens'));
  const deps: SessionCommandDeps = {
    agents,
    lists,
    chats,
    tree,
    view,
    settings,
    fresh,
    confirm: confirmModal,
    worktrees: app.worktrees,
  };
  const manage: ManageDeps = {
    agents,
    lists,
    chats,
    decor,
    mcpServers: app.mcp,
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
    app,
    chats,
    tree,
    view,
    decor,
    fresh,
    new CheckpointContents(app.checkpoints.checkpoints),
    new WorktreeContents(app.worktrees.worktrees),
    showNeedsInput(statuses, view, statusBar),
    ignored,
    view.onDidChangeVisibility(lookForIgnored),
    settings.onDidChange(lookForIgnored),
    // A chat in a worktree changed what it is doing: its row says so, and a turn that ended
    // may have changed files, so the worktree's figures are read again.
    statuses.onDidChange(({ agentId, sessionId }) => {
      const cwd = chats.get(agentId, sessionId)?.session.target.cwd;
      const at = cwd === undefined ? undefined : app.worktrees.find(cwd);
      if (!at) return;
      tree.refreshAll();
      if (statuses.activity(agentId, sessionId) !== 'running') void app.worktrees.refresh(at.folder);
    }),
    sessions.onDidCreateSession((session) => {
      if (session.sessionId) decor.markCreated(session.target.agentId, session.sessionId);
    }),
    statusBar,
    contextKeys,
    new HandoffLinks({ agents, chats, library }),
    retryListsOnTrust(lists),
    readWorktreesOnTrust(app.worktrees),
    app.registry.onDidChange(() => tree.refreshAll()),
    ...registerCommands(
      sessionCommands(deps),
      pickerCommands({
        agents,
        lists,
        chats,
        settings,
        decor,
        library,
        worktrees: app.worktrees,
        changes: app.checkpoints,
        pending,
      }),
      chatCommands(chats),
      agentCommands({
        agents,
        lists,
        sessions,
        settings,
        secrets: context.secrets,
        signInEnv: app.signInEnv,
        log,
        channel,
        confirm: (m, a, d) => deps.confirm(m, a, d),
        registry: app.registry,
        shippedIcons: vscode.Uri.joinPath(context.extensionUri, 'media', 'registry', 'icons').fsPath,
      }),
      manageCommands(manage),
      checkpointCommands(
        app.checkpoints,
        (node): SessionRef | undefined => {
          const n = node as Partial<SessionNode> | undefined;
          if (n?.type === 'session' && n.row && n.host)
            return {
              agentId: n.host.config.id,
              sessionId: n.row.sessionId,
              folders: sessionFolders(n.row),
              label: decor.name(n.host.config.id, n.row).label,
            };
          const chat = chats.active;
          const sessionId = chat?.session.sessionId;
          return chat && sessionId
            ? {
                agentId: chat.session.target.agentId,
                sessionId,
                folders: app.checkpoints.foldersOf(chat.session),
                label: chat.panel.title,
              }
            : undefined;
        },
        (m, a, d) => deps.confirm(m, a, d),
      ),
      restoreCommands({
        keeper: app.checkpoints,
        session: (agentId, sessionId) => chats.get(agentId, sessionId)?.session,
        confirm: (m, a, d) => deps.confirm(m, a, d),
      }),
      worktreeCommands({ agents, chats, rows: app.worktrees, settings, confirm: (m, a, d) => deps.confirm(m, a, d) }),
      libraryCommands({
        agents,
        lists,
        chats,
        library,
        keeper,
        touching: app.checkpoints,
        confirm: (m, a) => deps.confirm(m, a),
      }),
      handoffCommands({
        agents,
        lists,
        chats,
        decor,
        library,
        settings,
        keeper,
        confirm: (m, a, d) => deps.confirm(m, a, d),
      }),
      forkCommands({
        agents,
        lists,
        chats,
        decor,
        rows: app.worktrees,
        keeper: app.checkpoints,
        settings,
        mcpServers: app.mcp,
        confirm: (m, a, d) => deps.confirm(m, a, d),
      }),
    ),
    vscode.window.registerUriHandler({
      handleUri: (uri) => handleUri({ agents, lists, chats, settings, confirm: (m, a) => deps.confirm(m, a) }, uri),
    }),
  );
  // A session another window carried to this one (its folder, opened in a new window).
  const openCarriedHere = () => openCarried(pending, chats, settings.value.openMode);
  void openCarriedHere();
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
    library,
    checkpoints: app.checkpoints,
    pendingOpens: pending,
    openCarried: openCarriedHere,
    listenToSteps,
    registry: app.registry,
    setConfirm: (fn) => {
      deps.confirm = fn;
    },
  };
}

/**
 * VS Code waits for this promise: the chats' last changes reach the library's worker, and every
 * agent's group gets SIGTERM, then SIGKILL, before the host goes.
 */
export async function deactivate(): Promise<void> {
  const app = running;
  running = undefined;
  await app?.close();
}
