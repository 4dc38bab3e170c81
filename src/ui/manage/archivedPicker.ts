import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { normalizePath } from '../../platform/pathKey';
import { chatTarget } from '../../chat/target';
import { sortByUpdatedAt } from '../../sessions/picks';
import { toRow, type SessionRow } from '../../sessions/rows';
import { relativeTime } from '../../sessions/time';
import { pickFolder } from '../pickers/agentPicker';
import { describeError } from '../../app/errorText';
import { unarchive, type ManageDeps } from './manageActions';
import { folderPath } from '../sessionsView/sessionsTree';

interface ArchivedItem extends vscode.QuickPickItem {
  readonly row?: SessionRow;
  readonly host?: AgentHost;
  readonly more?: AgentHost;
}

const unarchiveButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('inbox'),
  tooltip: 'Unarchive',
};

/** The open "Show Archived Sessions" picker, for tests (item buttons cannot be clicked from the API). */
export interface OpenArchivedPick {
  readonly quickPick: vscode.QuickPick<ArchivedItem>;
  /** Resolves when the archived sessions are read (a page per agent). */
  readonly settled: Promise<void>;
  trigger(sessionId: string): Promise<void>;
}

let current: OpenArchivedPick | undefined;
export function currentArchivedPick(): OpenArchivedPick | undefined {
  return current;
}

/** "ACP: Show Archived Sessions": the folder's archived sessions, to open (which unarchives) or unarchive. */
export async function showArchived(deps: ManageDeps): Promise<void> {
  const folder = await pickFolder('Show the archived sessions of which folder?');
  if (!folder) return;
  const picker = new ArchivedPicker(deps, folder);
  current = picker;
  picker.quickPick.onDidHide(() => {
    if (current === picker) current = undefined;
    picker.quickPick.dispose();
  });
  picker.quickPick.show();
}

/**
 * The archived sessions of a folder, newest first: those an agent archived, read with the
 * `archived: "only"` filter of `session/list` (a page at a time), and those archived on this
 * side for agents that cannot.
 */
class ArchivedPicker implements OpenArchivedPick {
  readonly quickPick = vscode.window.createQuickPick<ArchivedItem>();
  private readonly rows = new Map<AgentHost, SessionRow[]>();
  private readonly cursors = new Map<AgentHost, string>();
  private readonly errors: string[] = [];
  private readonly cwd: string;
  settled: Promise<void>;

  constructor(
    private readonly deps: ManageDeps,
    private readonly folder: vscode.WorkspaceFolder,
  ) {
    this.cwd = folderPath(folder);
    const qp = this.quickPick;
    qp.title = `Archived Sessions — ${folder.name}`;
    qp.placeholder = 'Enter opens a session (and unarchives it); the button unarchives it';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.onDidAccept(() => void this.accept());
    qp.onDidTriggerItemButton(({ item }) => void this.unarchive(item));
    this.settled = this.read(deps.agents.all);
  }

  async trigger(sessionId: string): Promise<void> {
    const item = this.quickPick.items.find((i) => i.row?.sessionId === sessionId);
    if (item) await this.unarchive(item);
  }

  private async read(hosts: readonly AgentHost[]): Promise<void> {
    this.quickPick.busy = true;
    await Promise.all(hosts.map((host) => this.readOne(host)));
    this.quickPick.busy = false;
    this.render();
  }

  private async readOne(host: AgentHost): Promise<void> {
    try {
      const c = await host.connect();
      if (!c.features.archive) {
        const here = this.deps.decor.marks.archived(host.config.id, this.cwd);
        this.rows.set(
          host,
          here.map((e) => toRow(e.info)),
        );
        return;
      }
      const cursor = this.cursors.get(host);
      const page = await c.listSessions({ cwd: this.cwd, archived: 'only', ...(cursor ? { cursor } : {}) });
      const want = normalizePath(this.cwd);
      const got = page.sessions.filter((s) => normalizePath(s.cwd) === want).map(toRow);
      this.rows.set(host, [...(this.rows.get(host) ?? []), ...got]);
      if (page.nextCursor && page.nextCursor !== cursor) this.cursors.set(host, page.nextCursor);
      else this.cursors.delete(host);
    } catch (e) {
      this.errors.push(`${host.config.name}: ${describeError(e)}`);
    }
  }

  private render(): void {
    const now = Date.now();
    const several = this.rows.size > 1;
    const hostOf = new Map<SessionRow, AgentHost>();
    for (const [host, rows] of this.rows) for (const row of rows) hostOf.set(row, host);
    const items: ArchivedItem[] = sortByUpdatedAt([...hostOf.keys()]).map((row) => {
      const host = hostOf.get(row)!;
      const time = row.updatedAtMs !== undefined ? relativeTime(row.updatedAtMs, now) : '';
      const shown = this.deps.decor.name(host.config.id, row);
      return {
        label: shown.label,
        description: [time, several ? host.config.name : ''].filter(Boolean).join(' · '),
        detail: shown.named && !row.untitled ? row.label : undefined,
        row,
        host,
        buttons: [unarchiveButton],
      };
    });
    for (const host of this.cursors.keys())
      items.push({ label: `$(ellipsis) Load more of ${host.config.name}…`, more: host, alwaysShow: true });
    for (const error of this.errors) items.push({ label: `$(error) ${error}`, alwaysShow: true });
    if (items.length === 0) items.push({ label: `No archived sessions in ${this.folder.name}`, alwaysShow: true });
    this.quickPick.items = items;
  }

  private async accept(): Promise<void> {
    const item = this.quickPick.selectedItems[0] ?? this.quickPick.activeItems[0];
    if (item?.more) {
      this.settled = this.read([item.more]);
      return;
    }
    if (!item?.row || !item.host) return;
    this.quickPick.hide();
    // "Clients that want to continue an archived session SHOULD unarchive it" first.
    await this.unarchive(item);
    await this.deps.chats.open(chatTarget(item.host.config.id, item.row), 'auto');
  }

  private async unarchive(item: ArchivedItem): Promise<void> {
    if (!item.row || !item.host) return;
    const { row, host } = item;
    try {
      await unarchive(this.deps, { host, sessionId: row.sessionId, cwd: row.cwd, row });
    } catch (e) {
      void vscode.window.showErrorMessage(`ACP: ${describeError(e)}`);
      return;
    }
    this.rows.set(
      host,
      (this.rows.get(host) ?? []).filter((r) => r.sessionId !== row.sessionId),
    );
    this.render();
  }
}
