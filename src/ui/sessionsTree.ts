import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../base/lifecycle';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { displayState, STATE_WORDS, type AgentDisplayState } from './agentStates';
import { AgentExited } from '../agent/errors';
import type { SessionRow } from '../sessions/rows';
import type { SessionList } from '../sessions/sessionList';
import type { SessionLists } from '../sessions/sessionLists';
import { stateRows } from '../sessions/stateRows';
import { relativeTime } from '../sessions/time';
import { tooltipMarkdown } from '../sessions/tooltip';
import { describeError } from './errorText';
import { canLogout, setContext } from './contextKeys';

/** A workspace folder (only shown when the window has several). */
export interface FolderNode {
  readonly type: 'folder';
  readonly folder: vscode.WorkspaceFolder;
  readonly path: string;
}
/** An agent under a folder (only shown when several agents are configured). */
export interface AgentNode {
  readonly type: 'agent';
  readonly host: AgentHost;
  readonly folder: vscode.WorkspaceFolder;
  readonly path: string;
}
export interface SessionNode {
  readonly type: 'session';
  readonly list: SessionList;
  readonly host: AgentHost;
  readonly folder: vscode.WorkspaceFolder;
  row: SessionRow;
}
/** "Load more…", "Loading…", an error with Retry, "No sessions", a notice. */
export interface StateNode {
  readonly type: 'state';
  readonly kind:
    'loadMore' | 'loading' | 'error' | 'empty' | 'notice' | 'stopped' | 'startFailed' | 'cannotList' | 'signIn';
  readonly list: SessionList;
  readonly host: AgentHost;
  readonly folder: vscode.WorkspaceFolder;
  readonly label: string;
  /** Why, in full (the row's tooltip). */
  readonly detail?: string;
}
export type TreeNode = FolderNode | AgentNode | SessionNode | StateNode;

/** The time rows are described against, and the minute tick that ages them; tests replace it. */
export interface TreeClock {
  now(): number;
  every(ms: number, tick: () => void): vscode.Disposable;
}

const systemClock: TreeClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return { dispose: () => clearInterval(timer) };
  },
};

/** Whether a chat for a session is open (the row's icon says so). */
export interface OpenChats {
  isOpen(agentId: string, sessionId: string): boolean;
  readonly onDidChangeOpen: vscode.Event<{ agentId: string; sessionId: string }>;
}

/**
 * The Sessions view: folder → agent → sessions, skipping a level with one member. Nodes are
 * kept per list so a change fires only the node that changed and `reveal` can find parents.
 */
export class SessionsTree extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  /** Session nodes per list, by id, so a row change fires the same object the tree holds. */
  private readonly nodes = new WeakMap<SessionList, Map<string, SessionNode>>();
  private readonly parents = new WeakMap<SessionList, TreeNode | undefined>();
  private pendingFull = false;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly lists: SessionLists,
    private readonly chats: OpenChats,
  ) {
    super();
    this.register(
      lists.onDidChangeList(({ list, change }) => {
        if (change.kind === 'row') {
          const node = this.nodes.get(list)?.get(change.sessionId);
          const row = list.get(change.sessionId);
          if (node && row) {
            node.row = row;
            this.changeEmitter.fire(node);
            return;
          }
        }
        this.fireList(list);
      }),
    );
    this.register(agents.onDidChangeAgents(() => this.refreshAll()));
    this.register(
      agents.onDidChangeState((host) => {
        for (const list of lists.listsOf(host.config.id)) this.fireList(list);
      }),
    );
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.refreshAll()));
    this.register(
      chats.onDidChangeOpen(({ agentId, sessionId }) => {
        for (const list of lists.listsOf(agentId)) {
          const node = this.nodes.get(list)?.get(sessionId);
          if (node) this.changeEmitter.fire(node);
        }
      }),
    );
    this.useClock(systemClock);
  }

  private clock = systemClock;
  private readonly ticker = this.register(new MutableDisposable<vscode.Disposable>());

  /** Relative times ("5 min ago") age: the rows are redrawn each minute, nothing is fetched. */
  useClock(clock: TreeClock): void {
    this.clock = clock;
    this.ticker.value = clock.every(60_000, () => this.refreshAll());
  }

  /** Coalesces full refreshes into one per microtask. */
  refreshAll(): void {
    if (this.pendingFull) return;
    this.pendingFull = true;
    queueMicrotask(() => {
      this.pendingFull = false;
      this.changeEmitter.fire(undefined);
    });
  }

  private fireList(list: SessionList): void {
    if (!this.parents.has(list)) return;
    const parent = this.parents.get(list);
    if (parent) this.changeEmitter.fire(parent);
    else this.refreshAll();
  }

  private folders(): FolderNode[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((folder) => ({ type: 'folder', folder, path: folderPath(folder) }));
  }

  getChildren(element?: TreeNode): TreeNode[] {
    if (!element) {
      const folders = this.folders();
      if (folders.length === 0 || this.agents.all.length === 0) return [];
      if (folders.length > 1) {
        this.setCannotList(false);
        return folders;
      }
      const children = this.folderChildren(folders[0]!, undefined);
      // One folder and one agent that cannot list: the welcome view says so, with New Session.
      const cannot = children.length === 1 && children[0]!.type === 'state' && children[0]!.kind === 'cannotList';
      this.setCannotList(cannot);
      return cannot ? [] : children;
    }
    switch (element.type) {
      case 'folder':
        return this.folderChildren(element, element);
      case 'agent':
        return this.listChildren(this.lists.get(element.host, element.path), element.host, element.folder, element);
      default:
        return [];
    }
  }

  private cannotList = false;

  private setCannotList(value: boolean): void {
    if (value === this.cannotList) return;
    this.cannotList = value;
    setContext('acp.cannotList', value);
  }

  private folderChildren(f: FolderNode, parent: TreeNode | undefined): TreeNode[] {
    const hosts = this.agents.all;
    if (hosts.length > 1) return hosts.map((host) => ({ type: 'agent', host, folder: f.folder, path: f.path }));
    const host = hosts[0]!;
    return this.listChildren(this.lists.get(host, f.path), host, f.folder, parent);
  }

  private listChildren(
    list: SessionList,
    host: AgentHost,
    folder: vscode.WorkspaceFolder,
    parent: TreeNode | undefined,
  ): TreeNode[] {
    this.parents.set(list, parent);
    if (!list.loaded && list.state === 'idle') void list.loadFirstPage();
    const state = (kind: StateNode['kind'], label: string, detail?: string): StateNode => ({
      type: 'state',
      kind,
      list,
      host,
      folder,
      label,
      detail,
    });
    const rows = stateRows(list);
    if (rows[0]?.kind === 'cannotList') return [state('cannotList', `${host.config.name} cannot list sessions`)];
    const out: TreeNode[] = [];
    const hostState = host.state;
    if (hostState.kind === 'failed' && hostState.error instanceof AgentExited) {
      // A process that never ran (a wrong command) needs the settings, not just a restart.
      const { error } = hostState;
      if (error.spawnError)
        out.push(state('startFailed', `${host.config.name} could not be started`, error.startProblem));
      else out.push(state('stopped', `${host.config.name} stopped — Restart`, describeError(error)));
    }
    const nodes = this.nodesOf(list);
    const seen = new Set<string>();
    for (const row of list.items) {
      const node = this.nodeOf(nodes, list, host, folder, row);
      seen.add(row.sessionId);
      out.push(node);
    }
    for (const id of nodes.keys()) if (!seen.has(id)) nodes.delete(id);
    for (const row of rows) {
      if (row.kind === 'notice') out.push(state('notice', row.text));
      else if (row.kind === 'loading') out.push(state('loading', row.more ? 'Loading more…' : 'Loading sessions…'));
      else if (row.kind === 'signIn') out.push(state('signIn', `Sign in to ${host.config.name}`));
      else if (row.kind === 'loadMore') out.push(state('loadMore', 'Load more…'));
      else if (row.kind === 'empty') out.push(state('empty', 'No sessions in this folder yet'));
      // A list that failed because the agent stopped says so once: the agent's row above.
      else if (row.kind === 'error' && !(row.error instanceof AgentExited && out[0]?.type === 'state'))
        out.push(state('error', describeError(row.error)));
    }
    return out;
  }

  private nodesOf(list: SessionList): Map<string, SessionNode> {
    let nodes = this.nodes.get(list);
    if (!nodes) this.nodes.set(list, (nodes = new Map()));
    return nodes;
  }

  private nodeOf(
    nodes: Map<string, SessionNode>,
    list: SessionList,
    host: AgentHost,
    folder: vscode.WorkspaceFolder,
    row: SessionRow,
  ): SessionNode {
    let node = nodes.get(row.sessionId);
    if (!node) nodes.set(row.sessionId, (node = { type: 'session', list, host, folder, row }));
    node.row = row;
    return node;
  }

  /** The node of a listed session, the same object the tree holds (for `reveal`). */
  sessionNode(
    list: SessionList,
    host: AgentHost,
    folder: vscode.WorkspaceFolder,
    sessionId: string,
  ): SessionNode | undefined {
    const row = list.get(sessionId);
    return row && this.nodeOf(this.nodesOf(list), list, host, folder, row);
  }

  getParent(element: TreeNode): TreeNode | undefined {
    if (element.type === 'folder') return undefined;
    if (element.type === 'agent')
      return this.folders().length > 1 ? this.folders().find((f) => f.folder === element.folder) : undefined;
    return this.parents.get(element.list);
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    switch (element.type) {
      case 'folder': {
        const item = new vscode.TreeItem(element.folder.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `folder:${element.path}`;
        item.iconPath = vscode.ThemeIcon.Folder;
        item.resourceUri = element.folder.uri;
        item.contextValue = 'folder';
        return item;
      }
      case 'agent': {
        const item = new vscode.TreeItem(element.host.config.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `agent:${element.path}:${element.host.config.id}`;
        const shown = displayState(element.host.state.kind, element.host.needsSignIn);
        item.description = STATE_WORDS[shown];
        item.iconPath = AGENT_ICONS[shown];
        const { state } = element.host;
        item.tooltip = `${element.host.config.name}: ${STATE_WORDS[shown]}${state.kind === 'failed' ? `\n${describeError(state.error)}` : ''}`;
        // ".logout": Sign Out is offered only for an agent that advertises it.
        item.contextValue = `agent.${shown}${canLogout(element.host) ? '.logout' : ''}`;
        return item;
      }
      case 'session':
        return this.sessionItem(element);
      case 'state':
        return stateItem(element);
    }
  }

  /** The session row's Markdown tooltip, when the pointer rests on it. */
  resolveTreeItem(item: vscode.TreeItem, element: TreeNode): vscode.TreeItem {
    if (element.type === 'session' && item.tooltip === undefined) {
      const tooltip = new vscode.MarkdownString(tooltipMarkdown(element.row, element.folder.name));
      tooltip.isTrusted = false;
      tooltip.supportHtml = false;
      item.tooltip = tooltip;
    }
    return item;
  }

  private sessionItem(node: SessionNode): vscode.TreeItem {
    const { row, host } = node;
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = `session:${node.list.folder}:${host.config.id}:${row.sessionId}`;
    if (row.updatedAtMs !== undefined) item.description = relativeTime(row.updatedAtMs, this.clock.now());
    // The tooltip is built on hover (resolveTreeItem), not for every row of every refresh.
    const open = this.chats.isOpen(host.config.id, row.sessionId);
    item.iconPath = new vscode.ThemeIcon(open ? 'comment-discussion' : 'comment');
    const f = host.connection?.features;
    item.contextValue = [
      'session',
      f?.load !== false ? 'load' : '',
      f?.resume ? 'resume' : '',
      f?.delete ? 'delete' : '',
      open ? 'open' : '',
    ]
      .filter(Boolean)
      .join('.');
    item.command = { command: 'acp.openSession', title: 'Open', arguments: [node] };
    return item;
  }
}

const AGENT_ICONS: Record<AgentDisplayState, vscode.ThemeIcon> = {
  stopped: new vscode.ThemeIcon('circle-outline'),
  starting: new vscode.ThemeIcon('loading~spin'),
  ready: new vscode.ThemeIcon('hubot'),
  signIn: new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
};

function stateItem(node: StateNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
  item.id = `state:${node.list.folder}:${node.host.config.id}:${node.kind}`;
  item.contextValue = `state.${node.kind}`;
  switch (node.kind) {
    case 'loadMore':
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'acp.loadMore', title: 'Load more', arguments: [node] };
      break;
    case 'loading':
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      break;
    case 'error':
      item.iconPath = new vscode.ThemeIcon('error');
      item.tooltip = node.label;
      item.command = { command: 'acp.retryList', title: 'Retry', arguments: [node] };
      break;
    case 'stopped':
      item.iconPath = new vscode.ThemeIcon('debug-disconnect');
      item.tooltip = node.detail;
      item.command = { command: 'acp.restartAgent', title: 'Restart Agent', arguments: [node] };
      break;
    case 'startFailed':
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
      item.description = node.detail;
      item.tooltip = `${node.label}: ${node.detail ?? ''}\nClick to try again.`;
      item.command = { command: 'acp.restartAgent', title: 'Restart Agent', arguments: [node] };
      break;
    case 'signIn':
      item.iconPath = new vscode.ThemeIcon('account');
      item.tooltip = `${node.host.config.name} asks you to sign in before it lists sessions.`;
      item.command = { command: 'acp.signIn', title: 'Sign In', arguments: [node] };
      break;
    case 'cannotList':
      item.iconPath = new vscode.ThemeIcon('info');
      item.description = 'New Session';
      item.command = { command: 'acp.newSession', title: 'New Session', arguments: [node] };
      break;
    case 'notice':
      item.iconPath = new vscode.ThemeIcon('warning');
      item.tooltip = node.label;
      break;
    case 'empty':
      item.iconPath = new vscode.ThemeIcon('info');
      item.description = 'New Session';
      item.command = { command: 'acp.newSession', title: 'New Session', arguments: [node] };
      break;
  }
  return item;
}

/**
 * The `cwd` a folder's sessions are listed with: the folder's absolute path as the user opened
 * it (the agent's filter is exact); rows are then matched with normalised paths.
 */
export function folderPath(folder: vscode.WorkspaceFolder): string {
  return folder.uri.fsPath;
}
