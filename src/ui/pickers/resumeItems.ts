import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import type { ChatActivity } from '../../chat/status';
import type { FoundHit } from '../../app/contentSearch';
import { timeOf } from '../../library/query';
import type { SearchHit } from '../../library/types';
import type { ShownName } from '../../sessions/display';
import { toRow, type SessionRow } from '../../sessions/rows';
import type { StateRow } from '../../sessions/stateRows';
import { relativeTime } from '../../sessions/time';
import { sanitizeText, shortId } from '../../sessions/title';
import { sessionKey } from '../../agent/sessionKey';
import { ACTIVITY, type SessionDecor } from '../sessionDecor';
import type { ShownRows } from './pickRows';

/** A row of Resume Session: a session, or an action (new, load more, retry, sign in). */
export interface SessionPick extends vscode.QuickPickItem {
  readonly kind?: undefined;
  readonly row?: SessionRow;
  readonly host?: AgentHost;
  readonly activity?: ChatActivity;
  readonly folder?: vscode.WorkspaceFolder;
  readonly action?: 'new' | 'more' | 'retry' | 'signIn';
}

export const resumeButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('zap'),
  tooltip: 'Open Without Earlier Messages (Faster)',
};
export const historyButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('history'),
  tooltip: 'Open with Earlier Messages',
};
export const showHiddenButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('eye-closed'),
  tooltip: 'Show hidden sessions (acp.sessions.hide)',
};
export const everythingButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('globe'),
  tooltip: 'Search everything kept: every agent, every folder (also folders not open here)',
};
export const windowButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('root-folder'),
  tooltip: "Search this window's folders only",
};
export const hideHiddenButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('eye'),
  tooltip: 'Hide them again',
};

/**
 * A session's row: its name, time (and agent when there are several, `folder` when the
 * picker shows several, the branch of the worktree it works in), id and cwd, its activity.
 */
export function sessionPick(
  row: SessionRow,
  host: AgentHost,
  shown: ShownName,
  activity: ChatActivity,
  several: boolean,
  folder?: vscode.WorkspaceFolder,
  /** The branch of the worktree the session works in. */
  branch?: string,
  /** What it changed, cost and ran ("3 files +40 −2 · USD 0.75 · 12 min active"). */
  note?: string,
): SessionPick {
  const f = host.connection?.features;
  const time = row.updatedAtMs !== undefined ? relativeTime(row.updatedAtMs, Date.now()) : '';
  const status = activity === 'idle' ? undefined : ACTIVITY[activity];
  return {
    label: shown.label,
    description: [time, several ? host.config.name : '', folder?.name ?? '', branch ? `worktree ${branch}` : '']
      .filter(Boolean)
      .join(' · '),
    // A named session is found by the agent's title too.
    detail: [
      shown.named && !row.untitled ? `“${row.label}”` : '',
      shortId(row.sessionId),
      note ?? '',
      sanitizeText(row.cwd, 300),
    ]
      .filter(Boolean)
      .join(' · '),
    ...(status ? { iconPath: status.icon, tooltip: status.words } : {}),
    row,
    host,
    activity,
    folder,
    buttons: [...(f?.resume ? [resumeButton] : []), ...(f?.load !== false ? [historyButton] : [])],
  };
}

/**
 * The rows with what content search found put first, in its order (every word, then recency);
 * a kept session the lists have not paged to yet still shows, as the library knows it, and
 * `hostOf` knows its agent too.
 */
export function withContentHits(
  hits: readonly SearchHit[],
  shown: ShownRows,
  hostFor: (agentId: string) => AgentHost | undefined,
): { rows: readonly SessionRow[]; hostOf: (row: SessionRow) => AgentHost | undefined } {
  if (!hits.length) return { rows: shown.sorted, hostOf: (row) => shown.hostOf.get(row) };
  const added = new Map<SessionRow, AgentHost>();
  const first: SessionRow[] = [];
  let aliases: Map<string, SessionRow> | undefined;
  const aliasRows = (): Map<string, SessionRow> => {
    if (aliases) return aliases;
    aliases = new Map();
    for (const row of shown.sorted) {
      const agentId = row.aliases && shown.hostOf.get(row)?.config.id;
      if (agentId) for (const id of row.aliases!) aliases.set(sessionKey(agentId, id), row);
    }
    return aliases;
  };
  for (const hit of hits) {
    const host = hostFor(hit.agentId);
    if (!host) continue;
    const key = sessionKey(hit.agentId, hit.sessionId);
    // A kept session under an id its conversation no longer goes by is the row of its present id.
    let row = shown.byKey.get(key) ?? aliasRows().get(key);
    if (row && first.includes(row)) continue;
    if (!row) {
      row = toRow({
        sessionId: hit.sessionId,
        cwd: hit.cwd,
        title: hit.title ?? null,
        updatedAt: hit.updatedAt ?? null,
      });
      added.set(row, host);
    }
    first.push(row);
  }
  const taken = new Set(first);
  return {
    rows: [...first, ...shown.sorted.filter((row) => !taken.has(row))],
    hostOf: (row) => shown.hostOf.get(row) ?? added.get(row),
  };
}

/** What an agent's list state adds above the rows: a row that signs in, or one that starts a session. */
export function agentStateItems(
  stateOf: readonly StateRow[],
  host: AgentHost,
  folder: vscode.WorkspaceFolder,
  several: boolean,
): SessionPick[] {
  const out: SessionPick[] = [];
  // Not an error to retry: this agent has no session/list. It can still start a session.
  if (stateOf.some((r) => r.kind === 'cannotList'))
    out.push({
      label: `$(info) ${several ? host.config.name : 'This agent'} cannot list sessions — New Session`,
      action: 'new',
      host,
      folder,
      alwaysShow: true,
    });
  // An agent that wants sign-in gets a row that signs in, not an error.
  if (stateOf.some((r) => r.kind === 'signIn'))
    out.push({
      label: `$(account) Sign in to ${host.config.name}`,
      description: 'to see its sessions',
      action: 'signIn',
      host,
      folder,
      alwaysShow: true,
    });
  return out;
}

/**
 * A row content search found: its snippet under it, and after its time what else it is (its
 * agent and folder when searching everything, which may not be open here; archived; kept only
 * here; how many of the words it holds).
 */
export function hitItem(
  item: SessionPick,
  hit: FoundHit,
  how: { everything: boolean; unlisted: boolean },
): SessionPick {
  const partial = hit.matched < hit.words ? ` · ${hit.matched} of ${hit.words} words` : '';
  const archived = hit.archived ? ' · archived' : '';
  const unlisted = how.unlisted ? ' · kept here only (its agent no longer lists it)' : '';
  return {
    ...item,
    description: `${how.everything ? hitWhere(item, hit) : (item.description ?? '')}${archived}${unlisted}${partial}`,
    detail: hit.snippet ? `$(search) ${sanitizeText(hit.snippet, 300)}` : item.detail,
    alwaysShow: true,
  };
}

function hitWhere(item: SessionPick, hit: FoundHit): string {
  const time = hit.updatedAt && timeOf(hit.updatedAt);
  return [time ? relativeTime(time, Date.now()) : '', item.host?.config.name ?? hit.agentId, basename(hit.cwd)]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Each session row's item, made again only when its row, its shown name or its activity
 * changed: a keystroke makes none.
 */
export class SessionPicks {
  private readonly byKey = new Map<string, SessionPick>();
  private noteOf: (agentId: string, sessionId: string) => string | undefined = () => undefined;

  constructor(
    private readonly decor: SessionDecor,
    /** Several agents: each row names its agent. */
    private readonly several: boolean,
    /** The branch of a worktree's cwd, named on its rows. */
    private readonly branchOf: (cwd: string) => string | undefined,
  ) {}

  /** `folder`: named on the row (the picker shows several). */
  item(row: SessionRow, host: AgentHost, folder: vscode.WorkspaceFolder | undefined): SessionPick {
    const key = sessionKey(host.config.id, row.sessionId);
    const activity = this.decor.activity(host.config.id, row.sessionId);
    let item = this.byKey.get(key);
    const shown = this.decor.name(host.config.id, row);
    if (!item || item.row !== row || item.label !== shown.label || item.activity !== activity) {
      const note = this.noteOf(host.config.id, row.sessionId);
      item = sessionPick(row, host, shown, activity, this.several, folder, this.branchOf(row.cwd), note);
      this.byKey.set(key, item);
    }
    return item;
  }

  /**
   * Each row's note on what it changed, cost and ran. Only the items whose note it changes are
   * made again (the others stay the same objects, the active one among them); answers whether any was.
   */
  setNotes(noteOf: (agentId: string, sessionId: string) => string | undefined): boolean {
    const before = this.noteOf;
    this.noteOf = noteOf;
    let changed = false;
    for (const [key, item] of this.byKey) {
      const agentId = item.host!.config.id;
      const sessionId = item.row!.sessionId;
      if (noteOf(agentId, sessionId) === before(agentId, sessionId)) continue;
      this.byKey.delete(key);
      changed = true;
    }
    return changed;
  }
}
