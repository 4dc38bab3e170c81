import type * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { sessionKey } from '../../agent/sessionKey';
import { sortByUpdatedAt } from '../../sessions/picks';
import type { SessionRow } from '../../sessions/rows';
import type { SessionList } from '../../sessions/sessionList';
import type { SessionDecor } from '../sessionDecor';

/** One list Resume Session shows: an agent's sessions in a folder. */
export interface PickList {
  readonly host: AgentHost;
  readonly list: SessionList;
  readonly folder: vscode.WorkspaceFolder;
}

/** The rows of every list as the picker shows them. */
export interface ShownRows {
  /** Newest first; rows without a time last, in their agent's order. */
  readonly sorted: readonly SessionRow[];
  readonly hostOf: ReadonlyMap<SessionRow, AgentHost>;
  readonly folderOf: ReadonlyMap<SessionRow, vscode.WorkspaceFolder>;
  /** Each row by {@link sessionKey}, for content hits to find theirs. */
  readonly byKey: ReadonlyMap<string, SessionRow>;
  /** How many rows the hide rules leave out (shown or not). */
  readonly hidden: number;
}

/**
 * The rows of Resume Session's lists, filtered by the hide rules and sorted newest first once,
 * then kept until a list or what decides which rows show changes: a keystroke, which only
 * changes which rows lead, neither filters nor sorts thousands of rows again.
 */
export class PickRows {
  private shown: { rows: ShownRows; showHidden: boolean } | undefined;

  constructor(
    private readonly lists: readonly PickList[],
    private readonly decor: SessionDecor,
  ) {}

  /** A list changed, or names, archives, hide rules or activities did: filtered and sorted again when next asked. */
  changed(): void {
    this.shown = undefined;
  }

  /** The rows now; `showHidden`: with the rows the hide rules leave out. */
  now(showHidden: boolean): ShownRows {
    if (this.shown?.showHidden !== showHidden) this.shown = { rows: this.compute(showHidden), showHidden };
    return this.shown.rows;
  }

  private compute(showHidden: boolean): ShownRows {
    let hidden = 0;
    const hostOf = new Map<SessionRow, AgentHost>();
    const folderOf = new Map<SessionRow, vscode.WorkspaceFolder>();
    const byKey = new Map<string, SessionRow>();
    const all: SessionRow[] = [];
    for (const { host, list, folder } of this.lists) {
      const visible = this.decor.visible(list, showHidden);
      hidden += visible.hidden;
      for (const row of visible.rows) {
        all.push(row);
        hostOf.set(row, host);
        folderOf.set(row, folder);
        byKey.set(sessionKey(host.config.id, row.sessionId), row);
      }
    }
    return { sorted: sortByUpdatedAt(all), hostOf, folderOf, byKey, hidden };
  }
}
