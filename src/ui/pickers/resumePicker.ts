import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { sessionKey } from '../../agent/sessionKey';
import type { IDisposable } from '../../base/lifecycle';
import { chatTarget, type OpenMode } from '../../chat/target';
import { openPicked } from './openElsewhere';
import { matchIdPrefix } from '../../sessions/picks';
import type { SessionRow } from '../../sessions/rows';
import { stateRows } from '../../sessions/stateRows';
import type { SearchHit } from '../../library/types';
import { pathKey } from '../../platform/pathKey';
import { ContentSearch, type SearchScope } from '../../app/contentSearch';
import { sessionNotes } from '../../app/sessionNotes';
import type { ResumeDeps } from './resumeDeps';
import { FILTER_HINTS } from '../../app/searchFilters';
import {
  SessionPicks,
  everythingButton,
  hitItem,
  hideHiddenButton,
  resumeButton,
  windowButton,
  showHiddenButton,
  agentStateItems,
  withContentHits,
  type SessionPick,
} from './resumeItems';
import { openAFolder } from '../messages';
import { folderPath } from '../sessionsView/sessionsTree';
import { listedKeys, listErrors, pageLists, prefixUnmatched, unlistedIn } from './pickLists';
import { PickRows, type PickList } from './pickRows';
import { noteStep } from '../../base/steps';

/** Background paging stops here; a "Load more…" row goes on. */
export const PICK_LIMIT = 5000;
/** Rows shown in the first render when more are known; the rest follow on the next tick. */
const FIRST_ROWS = 200;
/** The shortest time between two renders while pages arrive. */
const RENDER_EVERY_MS = 250;

/** What the open QuickPick exposes to tests (item buttons cannot be clicked from the API). */
export interface OpenPick {
  readonly quickPick: vscode.QuickPick<SessionPick>;
  trigger(sessionId: string, button: 'resume' | 'history'): void;
  /** Types into the filter as a user would (a programmatic `value` set fires no change event). */
  type(value: string): void;
  /** Resolves when background paging has stopped. */
  readonly settled: Promise<void>;
  /** The title bar's button: shows or hides the rows `acp.sessions.hide` leaves out. */
  toggleHidden(): void;
  /** The title bar's scope button: the window's folders, or everything kept. */
  setScope(scope: SearchScope): void;
}

let current: OpenPick | undefined;
/** The QuickPick "ACP: Resume Session" has open, if any (for tests). */
export function currentPick(): OpenPick | undefined {
  return current;
}

/** "ACP: Resume Session": the sessions of every folder of the window at once. */
export async function resumeSession(deps: ResumeDeps): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) return openAFolder();
  if (deps.agents.all.length === 0) {
    void vscode.commands.executeCommand('acp.addAgent');
    return;
  }
  const picker = new ResumePicker(deps, folders, () => {
    if (current === picker) current = undefined;
  });
  current = picker;
  picker.show();
}

/**
 * The sessions of the window's folders (each row names its folder when there are several),
 * newest first, searchable by title, time, id, cwd and, where kept, content. It opens at once
 * with what is cached or loaded, then pages on in the background and adds rows without losing
 * what the user typed or the active row.
 */
export class ResumePicker implements OpenPick {
  readonly quickPick = vscode.window.createQuickPick<SessionPick>();
  private readonly lists: readonly PickList[];
  /** Their rows, filtered and sorted once per change of a list, not per keystroke. */
  private readonly rows: PickRows;
  private readonly several: boolean;
  private readonly severalFolders: boolean;
  private readonly picks: SessionPicks;
  /** Why lists failed, as of the end of the last paging (shown under the rows). */
  private errors: string[] = [];
  private stopped = false;
  private limit = PICK_LIMIT;
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRender = 0;
  private paging: Promise<void>;
  private readonly subscriptions: IDisposable[];
  /** What typed words find in the text of kept sessions. */
  private readonly content: ContentSearch;
  /** The rows the hide rules leave out show too (the title bar's eye button). */
  private showHidden: boolean;
  private hiddenNote = '';
  private searchableNote = '';
  /** How many times notes were read, so that only the latest read's are shown. */
  private notesAsked = 0;
  /** What the last render showed of the typed value: the content hits and the rows an id prefix matched. */
  private shownFor: { hits: readonly SearchHit[] | undefined; prefix: string } = { hits: undefined, prefix: '' };

  constructor(
    private readonly deps: ResumeDeps,
    private readonly folders: readonly vscode.WorkspaceFolder[],
    private readonly onHidden: () => void = () => {},
  ) {
    const hosts = deps.agents.all;
    this.several = hosts.length > 1;
    this.severalFolders = folders.length > 1;
    // Each folder's worktrees are places of their own: their sessions are listed with the
    // worktree as cwd, under the folder, each row naming its branch.
    const places = folders.flatMap((folder): { folder: vscode.WorkspaceFolder; path: string; branch?: string }[] => [
      { folder, path: folderPath(folder) },
      ...(deps.worktrees?.rows(folderPath(folder)) ?? [])
        .filter((w) => !w.info.missing)
        .map((w) => ({ folder, path: w.info.path, branch: w.info.branch })),
    ]);
    const branches = new Map(places.flatMap((p) => (p.branch ? [[pathKey(p.path), p.branch] as const] : [])));
    this.picks = new SessionPicks(deps.decor, this.several, (cwd) => branches.get(pathKey(cwd)));
    this.lists = places.flatMap(({ folder, path }) =>
      hosts.map((host) => ({ host, folder, list: deps.lists.get(host, path) })),
    );
    this.rows = new PickRows(this.lists, deps.decor);
    const qp = this.quickPick;
    qp.placeholder = deps.library?.enabled
      ? `Search by what was said, title, time, id or folder; paste an id to find any session — filters: ${FILTER_HINTS}`
      : 'Search by title, time, id or folder; paste an id to find any session';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    // Title matches sort first (the workbench does that); content hits follow in the library's
    // order (every word, then recency), then the other rows, newest first.
    this.content = new ContentSearch(
      () => deps.library?.get(),
      places.map((p) => p.path),
      () => this.stopped || this.renderIfChanged(),
      {
        // Archived here, or by its agent (a row the agent still lists as archived).
        archived: (agentId, sessionId) =>
          deps.decor.marks.isArchived(agentId, sessionId) ||
          deps.lists.listsOf(agentId).some((l) => l.get(sessionId)?.archived === true),
        agentName: (agentId) => deps.agents.get(agentId)?.config.name,
        agentIds: () => deps.agents.all.map((h) => h.config.id),
        ...(deps.changes ? { changedFiles: (like, folders) => deps.changes!.sessionsChanging(like, folders) } : {}),
      },
    );
    qp.title = `Resume Session — ${this.folderWords}`;
    this.showHidden = deps.decor.showHidden;
    this.subscriptions = [
      ...this.lists.map(({ list }) => list.onDidChange(() => this.rowsChanged())),
      deps.decor.onDidChange(() => this.rowsChanged()),
      qp.onDidTriggerButton((b) =>
        b === everythingButton || b === windowButton
          ? this.setScope(b === everythingButton ? 'everything' : 'window')
          : this.toggleHidden(),
      ),
      qp.onDidChangeValue(() => this.valueChanged()),
      qp.onDidAccept(() => this.accept()),
      qp.onDidTriggerItemButton(({ item, button }) => this.open(item, button === resumeButton ? 'resume' : 'load')),
      qp.onDidHide(() => this.hidden()),
    ];
    this.paging = this.pageOn();
  }

  get settled(): Promise<void> {
    return this.paging;
  }

  trigger(sessionId: string, button: 'resume' | 'history'): void {
    const item = this.quickPick.items.find((i) => i.row?.sessionId === sessionId);
    if (item) this.open(item, button === 'resume' ? 'resume' : 'load');
  }

  toggleHidden(): void {
    this.showHidden = !this.showHidden;
    this.render();
  }

  setScope(scope: SearchScope): void {
    this.content.setScope(scope);
    this.render();
    // Sessions of folders not open here may show now: their notes are read too.
    if (scope === 'everything') void this.loadNotes();
  }

  type(value: string): void {
    this.quickPick.value = value;
    this.valueChanged();
  }

  /**
   * Thousands of known rows: the newest show at once, the rest a moment later (handing every
   * row to the workbench is what takes the time).
   */
  show(): void {
    this.render(FIRST_ROWS);
    this.quickPick.show();
    if (this.quickPick.items.length >= FIRST_ROWS) this.renderTimer = setTimeout(() => this.render(), 0);
  }

  /** "all folders", or the one folder's name. */
  private get folderWords(): string {
    if (this.content.scope === 'everything') return 'everything kept (every agent and folder)';
    return this.severalFolders ? 'all folders' : this.folders[0]!.name;
  }

  /** The folder of a kept session that no list has shown yet (found by content). */
  private folderAt(cwd: string): vscode.WorkspaceFolder | undefined {
    const key = pathKey(cwd);
    return this.folders.find((f) => pathKey(folderPath(f)) === key);
  }

  private toItem(row: SessionRow, host: AgentHost, folder: vscode.WorkspaceFolder | undefined): SessionPick {
    return this.picks.item(row, host, this.severalFolders ? folder : undefined);
  }

  // Background paging changes the lists several times a page; each render hands every row to
  // the workbench, so renders during paging are spaced out. The first rows show at once.
  private scheduleRender(): void {
    if (this.stopped || this.renderTimer) return;
    const shown = this.quickPick.items.some((i) => i.row);
    const wait = shown ? Math.max(0, this.lastRender + RENDER_EVERY_MS - Date.now()) : 0;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      if (!this.stopped) this.render();
    }, wait);
  }

  /** A list or what decides which rows show changed: sorted again, shown soon. */
  private rowsChanged(): void {
    this.rows.changed();
    this.scheduleRender();
  }

  /** The sessions an id prefix typed now matches, as a key: rows shown, or found by content. */
  private prefixKey(): string {
    const value = this.quickPick.value;
    const listed = matchIdPrefix(this.rows.now(this.showHidden).sorted, value).map((r) => r.sessionId);
    const found = matchIdPrefix(
      this.content.hits.map((h) => ({ sessionId: h.sessionId })),
      value,
    ).map((r) => r.sessionId);
    return [...listed, ...found].join('\n');
  }

  /**
   * A keystroke changes which rows lead (content hits, an id prefix's matches) and nothing
   * else the workbench does not filter by itself: the rows are handed over again only when
   * those changed.
   */
  private renderIfChanged(): void {
    if (this.content.hits === this.shownFor.hits && this.prefixKey() === this.shownFor.prefix) return;
    this.render();
  }

  /** Renders the rows; with `first`, only the newest `first` of them (then call again for all). */
  private render(first = Infinity): void {
    const qp = this.quickPick;
    this.lastRender = Date.now();
    if (this.renderTimer) {
      clearTimeout(this.renderTimer);
      this.renderTimer = undefined;
    }
    const shown = this.rows.now(this.showHidden);
    const { hidden } = shown;
    const scopeButton = this.content.scope === 'everything' ? windowButton : everythingButton;
    qp.buttons = [
      ...(this.deps.library?.enabled ? [scopeButton] : []),
      ...(hidden > 0 || this.showHidden ? [this.showHidden ? hideHiddenButton : showHiddenButton] : []),
    ];
    this.hiddenNote = hidden > 0 ? ` (${hidden} hidden${this.showHidden ? ', shown' : ''})` : '';
    this.showTitle();
    this.shownFor = { hits: this.content.hits, prefix: this.prefixKey() };
    const { rows: sorted, hostOf } = withContentHits(
      this.content.hits,
      shown,
      (agentId) => this.lists.find(({ host }) => host.config.id === agentId)?.host,
    );
    const prefixHits = new Set(matchIdPrefix(sorted, qp.value).map((r) => r.sessionId));
    const items: SessionPick[] = sorted.slice(0, first).map((row) => {
      const host = hostOf(row)!;
      const item = this.toItem(row, host, shown.folderOf.get(row) ?? this.folderAt(row.cwd));
      const hit = this.content.hit(host.config.id, row.sessionId);
      if (hit)
        return hitItem(item, hit, {
          everything: this.content.scope === 'everything',
          unlisted: !shown.byKey.has(sessionKey(host.config.id, row.sessionId)) && unlistedIn(this.lists, hit),
        });
      return prefixHits.has(row.sessionId) ? { ...item, alwaysShow: true } : item;
    });
    // A filter that could not be read says so above the rows (the rest of the text is searched).
    for (const problem of this.content.filters.problems)
      items.unshift({ label: `$(warning) ${problem}`, alwaysShow: true });
    if (first < sorted.length) {
      qp.items = items;
      return;
    }
    const states = this.lists.map(({ host, list, folder }) => ({ host, folder, rows: stateRows(list) }));
    const more = states.some((s) => s.rows.some((r) => r.kind === 'loadMore'));
    if (more && shown.sorted.length >= this.limit)
      items.push({ label: '$(ellipsis) Load more…', action: 'more', alwaysShow: true });
    for (const { host, folder, rows: stateOf } of states)
      items.unshift(...agentStateItems(stateOf, host, folder, this.several));
    const errors = this.errors;
    // Paging that stopped early says why, below the rows it did list.
    if (items.length > 0 && !qp.busy) {
      if (errors.length > 0)
        items.push({
          label: `$(error) ${errors[0]}`,
          description: 'Enter to retry',
          action: 'retry',
          alwaysShow: true,
        });
      for (const { rows: stateOf } of states)
        for (const r of stateOf)
          if (r.kind === 'notice') items.push({ label: `$(warning) ${r.text}`, alwaysShow: true });
    }
    if (items.length === 0 && !qp.busy) {
      items.push({
        label: errors.length
          ? `$(error) ${errors[0]}`
          : `No sessions in ${this.severalFolders ? 'these folders' : this.folderWords} yet — New Session`,
        action: errors.length ? 'retry' : 'new',
        alwaysShow: true,
      });
    }
    const active = qp.activeItems[0];
    const activeKey = active?.row && active.host ? sessionKey(active.host.config.id, active.row.sessionId) : undefined;
    qp.items = items;
    if (activeKey) {
      const again = items.find((i) => i.row && i.host && sessionKey(i.host.config.id, i.row.sessionId) === activeKey);
      if (again) qp.activeItems = [again];
    }
  }

  /** Says in the title how many of the folder's listed sessions are searchable by content. */
  private async countSearchable(): Promise<void> {
    const listed = listedKeys(this.lists);
    const n = await this.content.searchable(listed);
    if (n === undefined || this.stopped) return;
    this.searchableNote = ` · ${n} of ${listed.size} searchable by content`;
    this.showTitle();
  }

  /** The folder, how many rows the hide rules leave out, and how many sessions are searchable by content. */
  private showTitle(): void {
    this.quickPick.title = `Resume Session — ${this.folderWords}${this.hiddenNote}${this.searchableNote}`;
  }

  /** A typed id prefix that matches no row yet. */
  private wantsPrefix(): boolean {
    return prefixUnmatched(this.lists, this.quickPick.value);
  }

  /** Pages on up to `limit` rows; past it only while a typed id prefix matches no row yet. */
  private async pageOn(): Promise<void> {
    const qp = this.quickPick;
    qp.busy = true;
    try {
      await pageLists(this.lists, {
        limit: this.limit,
        stopped: () => this.stopped,
        wantsMore: () => this.wantsPrefix(),
        // The first rows are shown: the library may start now, warm by the time words are typed.
        firstRows: () => void this.deps.library?.get(),
      });
    } finally {
      this.errors = listErrors(this.lists);
      qp.busy = false;
      if (!this.stopped) this.render();
      void this.countSearchable();
      void this.loadNotes();
    }
  }

  /** Each row's note on what it changed, cost and ran, read once for every row at once. */
  private async loadNotes(): Promise<void> {
    const asked = ++this.notesAsked;
    const places = [...new Set(this.lists.map(({ list }) => list.folder))];
    const sources = { library: this.deps.library?.get(), changes: this.deps.changes };
    const noteOf = await sessionNotes(sources, places, this.content.scope);
    // An older read answering late would undo a newer one (another scope, more rows).
    if (this.stopped || asked !== this.notesAsked) return;
    if (this.picks.setNotes(noteOf)) this.render();
  }

  private open(item: SessionPick, mode: OpenMode): void {
    if (!item.row || !item.host) return;
    noteStep('picked');
    this.quickPick.hide();
    const target = chatTarget(item.host.config.id, item.row);
    // A content hit opens scrolled to its message, the words highlighted.
    const hit = this.content.hit(item.host.config.id, item.row.sessionId);
    const reveal = hit?.entryIndex !== undefined ? { index: hit.entryIndex, words: this.content.words } : undefined;
    const key = sessionKey(item.host.config.id, item.row.sessionId);
    const unlisted = !!hit && !this.rows.now(this.showHidden).byKey.has(key) && unlistedIn(this.lists, hit);
    const place = { here: !!this.folderAt(item.row.cwd), unlisted, agentName: item.host.config.name };
    const picked = { ...target, sessionId: item.row.sessionId };
    void openPicked(this.deps.chats, picked, mode, place, reveal, this.deps.pending);
  }

  private valueChanged(): void {
    this.content.run(this.quickPick.value);
    // At most one render per keystroke: when the library answers (its hits may lead), or now.
    if (!this.content.pending) this.renderIfChanged();
    // A pasted id that is not among the rows yet: page on until it is found or the list ends.
    if (!this.quickPick.busy && this.wantsPrefix() && this.lists.some(({ list }) => list.nextCursor !== undefined))
      this.paging = this.pageOn();
  }

  private accept(): void {
    const qp = this.quickPick;
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (!item) return;
    if (item.action === 'new') {
      qp.hide();
      // With the agent known (a row for an agent that cannot list), start with that one there;
      // otherwise New Session asks, as from the palette.
      const folder = item.folder ?? (this.severalFolders ? undefined : this.folders[0]);
      void vscode.commands.executeCommand(
        'acp.newSession',
        item.host && folder && { type: 'agent', host: item.host, folder, path: folderPath(folder) },
      );
    } else if (item.action === 'signIn') {
      qp.hide();
      void vscode.commands.executeCommand('acp.signIn', item.host);
    } else if (item.action === 'more') {
      this.limit += PICK_LIMIT;
      this.paging = this.pageOn();
    } else if (item.action === 'retry') {
      this.paging = Promise.all(
        this.lists.filter(({ list }) => list.state === 'error').map(({ list }) => list.retry()),
      ).then(() => this.pageOn());
    } else this.open(item, this.deps.settings.value.openMode);
  }

  private hidden(): void {
    this.stopped = true;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.onHidden();
    for (const s of this.subscriptions) s.dispose();
    this.quickPick.dispose();
  }
}
