import type * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import type { SessionRow } from '../../sessions/rows';
import type { SessionList } from '../../sessions/sessionList';
import type { WorktreeRow } from '../../app/worktreeRows';
import type { HeadingNode } from './dateHeadings';
import type { StateKind } from './stateItems';

/** The nodes of the Sessions tree. */
/** A workspace folder (only shown when the window has several). */
export interface FolderNode {
  readonly type: 'folder';
  readonly folder: vscode.WorkspaceFolder;
  readonly path: string;
}
/** An agent under a folder or a worktree (only shown when several agents are configured). */
export interface AgentNode {
  readonly type: 'agent';
  readonly host: AgentHost;
  readonly folder: vscode.WorkspaceFolder;
  readonly path: string;
  /** The worktree it is under, whose path is `path`. */
  readonly worktree?: WorktreeNode;
}
/** A git worktree of a folder's repository, its sessions under it (listed with its path as cwd). */
export interface WorktreeNode {
  readonly type: 'worktree';
  readonly folder: vscode.WorkspaceFolder;
  /** The folder's path: the repository the worktree belongs to. */
  readonly repo: string;
  readonly path: string;
  row: WorktreeRow;
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
  readonly kind: StateKind;
  readonly list: SessionList;
  readonly host: AgentHost;
  readonly folder: vscode.WorkspaceFolder;
  readonly label: string;
  /** Why, in full (the row's tooltip); for `hidden`, whether the hidden rows show. */
  readonly detail?: string;
}
export type TreeNode = FolderNode | AgentNode | WorktreeNode | SessionNode | StateNode | HeadingNode;
