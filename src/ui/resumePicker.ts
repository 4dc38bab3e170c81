import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import type { OpenMode } from '../chat/controller';
import { matchIdPrefix, MIN_ID_PREFIX, pickLastSession, sortByUpdatedAt } from '../sessions/picks';
import type { SessionRow } from '../sessions/rows';
import type { SessionList } from '../sessions/sessionList';
import { relativeTime } from '../sessions/time';
import { sanitizeText, shortId } from '../sessions/title';
import { AuthRequired } from '../agent/errors';
import { pickFolder } from './agentPicker';
import type { ChatPanels } from './chatPanels';
import { describeError } from './errorText';
import { CannotList, type SessionLists } from './sessionLists';
import { folderPath } from './sessionsTree';
import type { SettingsService } from './settings';

/** Background paging stops here; a "Load more…" row goes on. */
export const PICK_LIMIT = 5000;
/** Rows shown in the first render when more are known; the rest follow on the next tick. */
const FIRST_ROWS = 200;
/** The shortest time between two renders while pages arrive. */
const RENDER_EVERY_MS = 250;

interface SessionPick extends vscode.QuickPickItem {
  readonly kind?: undefined;
  readonly row?: SessionRow;
  readonly host?: AgentHost;
  readonly action?: 'new' | 'more' | 'retry' | 'signIn';
}

const resumeButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('debug-continue'),
  tooltip: 'Resume (no history)',
};
const historyButton: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('history'),
  tooltip: 'Open with history',
};

export interface ResumeDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  settings: SettingsService;
}

/** What the open QuickPick exposes to tests (item buttons cannot be clicked from the API). */
export interface OpenPick {
  readonly quickPick: vscode.QuickPick<SessionPick>;
  trigger(sessionId: string, button: 'resume' | 'history'): void;
  /** Types into the filter as a user would (a programmatic `value` set fires no change event). */
  type(value: string): void;
  /** Resolves when background paging has stopped. */
  readonly settled: Promise<void>;
}

let current: OpenPick | undefined;
/** The QuickPick "ACP: Resume Session" has open, if any (for tests). */
export function currentPick(): OpenPick | undefined {
  return current;
}

/**
 * "ACP: Resume Session": the folder's sessions, newest first, searchable by title, time, id and
 * cwd. It opens at once with what is cached or loaded, then pages on in the background and adds
 * rows without losing what the user typed or the active row.
 */
export async function resumeSession(deps: ResumeDeps): Promise<void> {
  const folder = await pickFolder('Resume a session from which folder?');
  if (!folder) return;
  const cwd = folderPath(folder);
  const hosts = deps.agents.all;
  if (hosts.length === 0) {
    void vscode.commands.executeCommand('acp.addAgent');
    return;
  }
  const lists = hosts.map((host) => ({ host, list: deps.lists.get(host, cwd) }));
  const qp = vscode.window.createQuickPick<SessionPick>();
  qp.title = `Resume Session — ${folder.name}`;
  qp.placeholder = 'Search by title, time, id or folder; paste an id to find any session';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const several = hosts.length > 1;
  const itemsById = new Map<string, SessionPick>();
  let errors: string[] = [];
  let stopped = false;
  let limit = PICK_LIMIT;

  const toItem = (row: SessionRow, host: AgentHost): SessionPick => {
    const key = `${host.config.id}\u0000${row.sessionId}`;
    let item = itemsById.get(key);
    if (!item || item.row !== row) {
      const f = host.connection?.features;
      const time = row.updatedAtMs !== undefined ? relativeTime(row.updatedAtMs, Date.now()) : '';
      item = {
        label: row.label,
        description: [time, several ? host.config.name : ''].filter(Boolean).join(' · '),
        detail: `${shortId(row.sessionId)} · ${sanitizeText(row.cwd, 300)}`,
        row,
        host,
        buttons: [...(f?.resume ? [resumeButton] : []), ...(f?.load !== false ? [historyButton] : [])],
      };
      itemsById.set(key, item);
    }
    return item;
  };

  // Background paging changes the lists several times a page; each render hands every row to
  // the workbench, so renders during paging are spaced out. The first rows show at once.
  let renderTimer: ReturnType<typeof setTimeout> | undefined;
  let lastRender = 0;
  const scheduleRender = () => {
    if (stopped || renderTimer) return;
    const shown = qp.items.some((i) => i.row);
    const wait = shown ? Math.max(0, lastRender + RENDER_EVERY_MS - Date.now()) : 0;
    renderTimer = setTimeout(() => {
      renderTimer = undefined;
      if (!stopped) render();
    }, wait);
  };

  /** Renders the rows; with `first`, only the newest `first` of them (then call again for all). */
  const render = (first = Infinity) => {
    lastRender = Date.now();
    if (renderTimer) {
      clearTimeout(renderTimer);
      renderTimer = undefined;
    }
    const rows = lists.flatMap(({ host, list }) => list.items.map((row) => ({ row, host })));
    const sorted = sortByUpdatedAt(rows.map((r) => r.row));
    const hostOf = new Map(rows.map((r) => [r.row, r.host]));
    const query = qp.value;
    const prefixHits = new Set(matchIdPrefix(sorted, query).map((r) => r.sessionId));
    const items: SessionPick[] = sorted.slice(0, first).map((row) => {
      const item = toItem(row, hostOf.get(row)!);
      return prefixHits.has(row.sessionId) ? { ...item, alwaysShow: true } : item;
    });
    if (first < sorted.length) {
      qp.items = items;
      return;
    }
    const total = rows.length;
    const more = lists.some(({ list }) => list.nextCursor !== undefined);
    if (more && total >= limit) items.push({ label: '$(ellipsis) Load more…', action: 'more', alwaysShow: true });
    // An agent that wants sign-in gets a row that signs in, not an error.
    for (const { host, list } of lists) {
      if (list.state === 'error' && list.error instanceof AuthRequired) {
        items.unshift({
          label: `$(account) Sign in to ${host.config.name}`,
          description: 'to see its sessions',
          action: 'signIn',
          host,
          alwaysShow: true,
        });
      }
      // Not an error to retry: this agent has no session/list. It can still start a session.
      if (list.state === 'error' && list.error instanceof CannotList) {
        items.unshift({
          label: `$(info) ${several ? host.config.name : 'This agent'} cannot list sessions — New Session`,
          action: 'new',
          host,
          alwaysShow: true,
        });
      }
    }
    // Paging that stopped early says why, below the rows it did list.
    if (items.length > 0 && !qp.busy) {
      if (errors.length > 0)
        items.push({
          label: `$(error) ${errors[0]}`,
          description: 'Enter to retry',
          action: 'retry',
          alwaysShow: true,
        });
      for (const { list } of lists)
        if (list.notice) items.push({ label: `$(warning) ${list.notice}`, alwaysShow: true });
    }
    if (items.length === 0 && !qp.busy) {
      items.push({
        label: errors.length ? `$(error) ${errors[0]}` : `No sessions in ${folder.name} yet — New Session`,
        action: errors.length ? 'retry' : 'new',
        alwaysShow: true,
      });
    }
    const active = qp.activeItems[0];
    const activeKey = active?.row && active.host ? `${active.host.config.id}\u0000${active.row.sessionId}` : undefined;
    qp.items = items;
    if (activeKey) {
      const again = items.find((i) => i.row && i.host && `${i.host.config.id}\u0000${i.row.sessionId}` === activeKey);
      if (again) qp.activeItems = [again];
    }
  };

  const wantsPrefix = () => {
    const q = qp.value.trim();
    if (q.length < MIN_ID_PREFIX) return false;
    const rows = lists.flatMap(({ list }) => list.items);
    return matchIdPrefix(rows, q).length === 0;
  };

  /** Pages on up to `limit` rows; past it only while a typed id prefix matches no row yet. */
  const pageOn = async () => {
    qp.busy = true;
    try {
      await Promise.all(lists.map(({ list }) => list.ensureLoaded()));
      for (;;) {
        if (stopped) return;
        const total = lists.reduce((n, { list }) => n + list.items.length, 0);
        const next = lists.filter(({ list }) => list.nextCursor !== undefined && list.state !== 'error');
        if (next.length === 0) break;
        if (total >= limit && !wantsPrefix()) break;
        await Promise.all(next.map(({ list }) => list.loadMore()));
      }
    } finally {
      errors = lists
        .filter(
          ({ list }) =>
            list.state === 'error' && !(list.error instanceof AuthRequired) && !(list.error instanceof CannotList),
        )
        .map(({ list }) => describeError(list.error));
      qp.busy = false;
      if (!stopped) render();
    }
  };

  const subs = lists.map(({ list }) => list.onDidChange(scheduleRender));
  let settled = pageOn();

  const open = (item: SessionPick, mode: OpenMode) => {
    if (!item.row || !item.host) return;
    qp.hide();
    void deps.chats.open(
      {
        agentId: item.host.config.id,
        sessionId: item.row.sessionId,
        cwd: item.row.cwd,
        additionalDirectories: item.row.additionalDirectories,
        title: item.row.title ?? undefined,
      },
      mode,
    );
  };

  const valueChanged = () => {
    render();
    // A pasted id that is not among the rows yet: page on until it is found or the list ends.
    if (!qp.busy && wantsPrefix() && lists.some(({ list }) => list.nextCursor !== undefined)) settled = pageOn();
  };
  qp.onDidChangeValue(valueChanged);
  qp.onDidAccept(() => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (!item) return;
    if (item.action === 'new') {
      qp.hide();
      // With the agent known (a row for an agent that cannot list), start with that one.
      void vscode.commands.executeCommand(
        'acp.newSession',
        item.host && { type: 'agent', host: item.host, folder, path: cwd },
      );
    } else if (item.action === 'signIn') {
      qp.hide();
      void vscode.commands.executeCommand('acp.signIn', item.host);
    } else if (item.action === 'more') {
      limit += PICK_LIMIT;
      settled = pageOn();
    } else if (item.action === 'retry') {
      settled = Promise.all(lists.filter(({ list }) => list.state === 'error').map(({ list }) => list.retry())).then(
        () => pageOn(),
      );
    } else open(item, deps.settings.value.openMode);
  });
  qp.onDidTriggerItemButton(({ item, button }) => open(item, button === resumeButton ? 'resume' : 'load'));
  qp.onDidHide(() => {
    stopped = true;
    if (renderTimer) clearTimeout(renderTimer);
    current = undefined;
    subs.forEach((s) => s.dispose());
    qp.dispose();
  });

  current = {
    quickPick: qp,
    trigger: (sessionId, button) => {
      const item = qp.items.find((i) => i.row?.sessionId === sessionId);
      if (item) open(item, button === 'resume' ? 'resume' : 'load');
    },
    type: (value) => {
      qp.value = value;
      valueChanged();
    },
    get settled() {
      return settled;
    },
  };
  // Thousands of known rows: the newest show at once, the rest a moment later (handing every
  // row to the workbench is what takes the time).
  render(FIRST_ROWS);
  qp.show();
  if (qp.items.length >= FIRST_ROWS) renderTimer = setTimeout(() => render(), 0);
}

/** Pages searched for the session opened last before taking it as gone. */
const LAST_SEARCH_PAGES = 20;

/** The listed row of a session, paging on a little; undefined when the agent no longer lists it. */
async function findListed(list: SessionList, sessionId: string): Promise<SessionRow | undefined> {
  await list.ensureLoaded();
  for (
    let i = 0;
    !list.get(sessionId) && list.nextCursor !== undefined && list.state !== 'error' && i < LAST_SEARCH_PAGES;
    i++
  )
    await list.loadMore();
  return list.get(sessionId);
}

/**
 * The session this window last had open in the folder while its agent still lists it (or its
 * panel is open), else the folder's most recent (the agent's first when none has a time), else
 * a new one.
 */
export async function continueLastSession(deps: ResumeDeps): Promise<void> {
  const folder = await pickFolder('Continue in which folder?');
  if (!folder) return;
  const cwd = folderPath(folder);
  const hosts = deps.agents.all;
  if (hosts.length === 0) return void vscode.commands.executeCommand('acp.addAgent');
  const candidates: { host: AgentHost; list: SessionList }[] = hosts.map((host) => ({
    host,
    list: deps.lists.get(host, cwd),
  }));
  const open = (host: AgentHost, sessionId: string, row: SessionRow | undefined) =>
    deps.chats.open(
      {
        agentId: host.config.id,
        sessionId,
        cwd: row?.cwd ?? cwd,
        additionalDirectories: row?.additionalDirectories,
        title: row?.title ?? undefined,
      },
      deps.settings.value.openMode,
    );
  const last = deps.chats.lastOpened(cwd);
  const owner = last && candidates.find((c) => c.host.config.id === last.agentId);
  const lastIsOpen = !!last && deps.chats.isOpen(last.agentId, last.sessionId);
  if (last && owner && !lastIsOpen) await findListed(owner.list, last.sessionId);
  await Promise.all(candidates.map((c) => c.list.ensureLoaded()));
  // An open panel vouches for its session; a list that failed (or an agent that cannot list)
  // cannot say the session is gone, so the chat opens and tells. Otherwise a session the agent
  // no longer lists (deleted) gives way to the most recent.
  const id = pickLastSession(
    owner ? last.sessionId : undefined,
    candidates.flatMap((c) => c.list.items),
    () => lastIsOpen || owner?.list.state === 'error',
  );
  const found = owner && id === last?.sessionId ? owner : candidates.find((c) => id !== undefined && c.list.get(id));
  if (id && found) {
    await open(found.host, id, found.list.get(id));
    return;
  }
  const host = deps.agents.default!;
  await deps.chats.open({ agentId: host.config.id, cwd }, 'new');
}
