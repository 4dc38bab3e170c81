import * as vscode from 'vscode';
import { Disposable, MutableDisposable } from '../../base/lifecycle';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { AgentExited } from '../../agent/errors';
import type { SessionRow } from '../../sessions/rows';
import type { SessionList } from '../../sessions/sessionList';
import type { SessionLists } from '../../sessions/sessionLists';
import { stateRows } from '../../sessions/stateRows';
import { tooltipMarkdown } from '../../sessions/tooltip';
import { describeError } from '../../app/errorText';
import { setContext } from '../contextKeys';
import type { FirstStarts } from '../../app/firstStart';
import type { SessionDecor } from '../sessionDecor';
import { sessionNotes, sessionTreeItem } from './sessionItems';
import { agentItem, folderItem } from './placeItems';
import { stateItem } from './stateItems';
import { groupByDate, startOfDay } from '../../sessions/dateGroups';
import { headingItem } from './dateHeadings';
import { sortByUpdatedAt } from '../../sessions/picks';
import { ListProblems } from './listProblems';

import type { WorktreeRows } from '../../app/worktreeRows';
import type { ChatActivity } from '../../chat/status';
import { worktreeItem } from '../worktrees/worktreeItem';
import type { AgentNode, FolderNode, SessionNode, StateNode, TreeNode, WorktreeNode } from './treeNodes';

export type { AgentNode, FolderNode, SessionNode, StateNode, TreeNode, WorktreeNode };

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
  private readonly parents = new Map<SessionList, TreeNode | undefined>();
  /**
   * Each list's session rows as last filtered, sorted and grouped under date headings, kept
   * until the list, what decides which rows show (names, archives, hide rules, open chats) or
   * the day changes: a refresh for anything else (an agent's state, the minute's tick) sorts nothing.
   */
  private readonly grouped = new Map<SessionList, { day: number; nodes: readonly TreeNode[]; hidden: number }>();
  private pendingFull = false;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly lists: SessionLists,
    private readonly chats: OpenChats,
    private readonly decor: SessionDecor,
    /** Says when a first start is downloading the agent (npx). */
    private readonly starts?: FirstStarts,
    /**
     * Lines for tooltips from what the window keeps: a row's (what the session changed, what it
     * used and cost) and a folder's (its totals for today and this week).
     */
    private readonly notes?: {
      row(agentId: string, row: SessionRow): Promise<Array<string | undefined>>;
      folder(cwd: string): Promise<string | undefined>;
    },
    /** Each folder's git worktrees, listed under it, and what the chats in a worktree are doing. */
    private readonly worktrees?: { rows: WorktreeRows; activity(path: string): ChatActivity },
  ) {
    super();
    if (worktrees) this.register(worktrees.rows.onDidChange(() => this.refreshAll()));
    this.register(
      lists.onDidChangeList(({ list, change }) => {
        if (change.kind !== 'state') this.grouped.delete(list);
        if (change.kind === 'row') {
          const node = this.nodes.get(list)?.get(change.sessionId);
          const row = list.get(change.sessionId);
          // A new time can move the row (newest on top) and under another heading: redraw the list.
          if (node && row && node.row.updatedAtMs === row.updatedAtMs) {
            node.row = row;
            this.changeEmitter.fire(node);
            return;
          }
        }
        this.fireList(list);
      }),
    );
    this.register(agents.onDidChangeAgents(() => this.forgetAndRefresh()));
    this.register(
      agents.onDidChangeState((host) => {
        for (const list of lists.listsOf(host.config.id)) this.fireList(list);
      }),
    );
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.forgetAndRefresh()));
    // Opening or closing a chat, a name, an archive or an activity can change which rows show.
    this.register(
      chats.onDidChangeOpen(({ agentId }) => {
        this.regroup(agentId);
        this.fireAgent(agentId);
      }),
    );
    this.register(
      decor.onDidChange(({ agentId }) => {
        this.regroup(agentId);
        if (agentId) this.fireAgent(agentId);
        else this.refreshAll();
      }),
    );
    this.useClock(systemClock);
  }

  private clock = systemClock;
  private readonly ticker = this.register(new MutableDisposable<vscode.Disposable>());

  /** Relative times ("5 min ago") age: the rows are redrawn each minute, nothing is fetched. */
  useClock(clock: TreeClock): void {
    this.clock = clock;
    this.grouped.clear();
    this.ticker.value = clock.every(60_000, () => this.refreshAll());
  }

  /** Agents or folders changed: the reasons of lists no longer shown go, the rest come back as drawn. */
  private forgetAndRefresh(): void {
    this.problems.clear();
    this.grouped.clear();
    this.refreshAll();
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

  /** The lists the view has shown, each with the node it hangs under (none: the root). */
  shownLists(): { list: SessionList; parent: TreeNode | undefined }[] {
    const live = new Set(this.lists.all());
    for (const list of this.parents.keys()) if (!live.has(list)) this.parents.delete(list);
    return [...this.parents].map(([list, parent]) => ({ list, parent }));
  }

  /** What decides which of an agent's rows show changed (every agent's, without one). */
  private regroup(agentId: string | undefined): void {
    if (!agentId) return this.grouped.clear();
    for (const list of this.lists.listsOf(agentId)) this.grouped.delete(list);
  }

  private fireAgent(agentId: string): void {
    for (const list of this.lists.listsOf(agentId)) this.fireList(list);
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
        this.setWelcome(undefined);
        return folders;
      }
      const children = this.folderChildren(folders[0]!, undefined);
      // One folder and one agent that cannot list, or that lists nothing here: the welcome
      // view says so in full, with New Session, instead of a row cut off at the view's width.
      const only = children.length === 1 && children[0]!.type === 'state' ? children[0]!.kind : undefined;
      const welcome = only === 'cannotList' || only === 'empty' ? only : undefined;
      this.setWelcome(welcome);
      return welcome ? [] : children;
    }
    switch (element.type) {
      case 'folder':
        return this.folderChildren(element, element);
      case 'agent':
        return this.listChildren(this.lists.get(element.host, element.path), element.host, element.folder, element);
      case 'worktree':
        return this.placeChildren(element.folder, element.path, element);
      default:
        return [];
    }
  }

  private welcome: 'cannotList' | 'empty' | undefined;

  /** Which welcome content replaces the rows (`acp.cannotList`, `acp.emptyFolder`), if any. */
  private setWelcome(value: 'cannotList' | 'empty' | undefined): void {
    if (value === this.welcome) return;
    this.welcome = value;
    setContext('acp.cannotList', value === 'cannotList');
    setContext('acp.emptyFolder', value === 'empty');
  }

  private folderChildren(f: FolderNode, parent: TreeNode | undefined): TreeNode[] {
    return [...this.worktreeNodes(f), ...this.placeChildren(f.folder, f.path, parent)];
  }

  /** A folder's or a worktree's sessions: an agent row each when there are several agents. */
  private placeChildren(folder: vscode.WorkspaceFolder, path: string, parent: TreeNode | undefined): TreeNode[] {
    const hosts = this.agents.all;
    const worktree = parent?.type === 'worktree' ? parent : undefined;
    if (hosts.length > 1) return hosts.map((host) => ({ type: 'agent', host, folder, path, worktree }));
    const host = hosts[0]!;
    return this.listChildren(this.lists.get(host, path), host, folder, parent);
  }

  private readonly worktreeNodesByPath = new Map<string, WorktreeNode>();

  /** The folder's worktrees, the same node objects across refreshes (for `reveal` and expansion). */
  private worktreeNodes(f: FolderNode): WorktreeNode[] {
    return (this.worktrees?.rows.rows(f.path) ?? []).map((row) => {
      let node = this.worktreeNodesByPath.get(row.info.path);
      if (!node || node.repo !== f.path) {
        node = { type: 'worktree', folder: f.folder, repo: f.path, path: row.info.path, row };
        this.worktreeNodesByPath.set(row.info.path, node);
      }
      node.row = row;
      return node;
    });
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
    const { nodes, hidden } = this.sessionNodes(list, host, folder);
    out.push(...nodes);
    if (hidden > 0) {
      const how = this.decor.showHidden ? 'Hide' : 'Show';
      out.push(state('hidden', `${hidden} hidden — ${how}`, this.decor.showHidden ? 'shown' : 'hidden'));
    }
    for (const row of rows) {
      if (row.kind === 'notice') out.push(state('notice', row.text));
      else if (row.kind === 'loading')
        out.push(
          state('loading', row.more ? 'Loading more…' : (this.starts?.loadingLabel(host) ?? 'Loading sessions…')),
        );
      else if (row.kind === 'signIn') out.push(state('signIn', `Sign in to ${host.config.name}`));
      else if (row.kind === 'loadMore') out.push(state('loadMore', 'Load more…'));
      else if (row.kind === 'empty') out.push(state('empty', 'No sessions in this folder yet'));
      // A list that failed because the agent stopped says so once: the agent's row above.
      else if (row.kind === 'error' && !(row.error instanceof AgentExited && out[0]?.type === 'state'))
        out.push(state('error', describeError(row.error)));
    }
    this.noteProblem(list, folder, out);
    return out;
  }

  /** Why lists failed, in full, for the message above the rows (a row is cut at the view's width). */
  readonly problems = this.register(new ListProblems<SessionList>());

  private noteProblem(list: SessionList, folder: vscode.WorkspaceFolder, rows: readonly TreeNode[]): void {
    const failed = rows.find(
      (n): n is StateNode => n.type === 'state' && (n.kind === 'error' || n.kind === 'startFailed'),
    );
    const why = failed && (failed.kind === 'error' ? failed.label : `${failed.label}: ${failed.detail ?? ''}`);
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    this.problems.set(list, why && several ? `${folder.name}: ${why}` : why);
  }

  /** The list's rows the view shows, grouped: as kept, or filtered, sorted and grouped again. */
  private sessionNodes(
    list: SessionList,
    host: AgentHost,
    folder: vscode.WorkspaceFolder,
  ): { nodes: readonly TreeNode[]; hidden: number } {
    const day = startOfDay(this.clock.now());
    const kept = this.grouped.get(list);
    if (kept?.day === day) return kept;
    const visible = this.decor.visible(list);
    const fresh = { day, nodes: this.datedSessionNodes(visible.rows, list, host, folder), hidden: visible.hidden };
    this.grouped.set(list, fresh);
    return fresh;
  }

  /** The session rows newest first, under date headings; nodes of rows no longer listed are dropped. */
  private datedSessionNodes(
    rows: readonly SessionRow[],
    list: SessionList,
    host: AgentHost,
    folder: vscode.WorkspaceFolder,
  ): TreeNode[] {
    const nodes = this.nodesOf(list);
    const seen = new Set<string>();
    const out: TreeNode[] = [];
    for (const run of groupByDate(sortByUpdatedAt(rows), this.clock.now())) {
      out.push({ type: 'heading', group: run.group, list, host });
      for (const row of run.rows) {
        seen.add(row.sessionId);
        out.push(this.nodeOf(nodes, list, host, folder, row));
      }
    }
    for (const id of nodes.keys()) if (!seen.has(id)) nodes.delete(id);
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
    if (element.type === 'agent' && element.worktree) return element.worktree;
    if (element.type === 'agent' || element.type === 'worktree')
      return this.folders().length > 1 ? this.folders().find((f) => f.folder === element.folder) : undefined;
    return this.parents.get(element.list);
  }

  private updateWords: ((host: AgentHost) => string | undefined) | undefined;

  /** What an agent's row says of an update on offer (the registry's), if any. */
  setUpdateWords(fn: (host: AgentHost) => string | undefined): void {
    this.updateWords = fn;
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    switch (element.type) {
      case 'folder':
        return folderItem(element);
      case 'agent':
        return agentItem(element, this.updateWords?.(element.host));
      case 'worktree':
        return worktreeItem(element, this.worktrees?.activity(element.path) ?? 'idle');
      case 'session':
        return this.sessionTreeItem(element);
      case 'state':
        return stateItem(element);
      case 'heading':
        return headingItem(element);
    }
  }

  /** The session row's Markdown tooltip, when the pointer rests on it. */
  async resolveTreeItem(item: vscode.TreeItem, element: TreeNode): Promise<vscode.TreeItem> {
    if (element.type === 'session' && item.tooltip === undefined) {
      const shown = sessionNotes(element, this.decor);
      const more = (await this.notes?.row(element.host.config.id, element.row).catch(() => undefined)) ?? [];
      for (const note of more) if (note) shown.notes.push(note);
      const agentId = element.host.config.id;
      const from = element.row.forkedFrom;
      const parent =
        from &&
        this.lists
          .listsOf(agentId)
          .find((l) => l.get(from))
          ?.get(from);
      const forkedFrom = parent ? this.decor.name(agentId, parent).label : undefined;
      const tooltip = new vscode.MarkdownString(
        tooltipMarkdown(element.row, element.folder.name, { ...shown, ...(forkedFrom ? { forkedFrom } : {}) }),
      );
      tooltip.isTrusted = false;
      tooltip.supportHtml = false;
      item.tooltip = tooltip;
    }
    if (element.type === 'folder' && item.tooltip === undefined) {
      const totals = await this.notes?.folder(element.path).catch(() => undefined);
      item.tooltip = totals ? `${element.path}\n${totals}` : element.path;
    }
    return item;
  }

  private sessionTreeItem(node: SessionNode): vscode.TreeItem {
    return sessionTreeItem(
      node,
      this.decor,
      this.chats.isOpen(node.host.config.id, node.row.sessionId),
      this.clock.now(),
    );
  }
}

/**
 * The `cwd` a folder's sessions are listed with: the folder's absolute path as the user opened
 * it (the agent's filter is exact); rows are then matched with normalised paths.
 */
export function folderPath(folder: vscode.WorkspaceFolder): string {
  return folder.uri.fsPath;
}
