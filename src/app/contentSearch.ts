import { sessionKey } from '../agent/sessionKey';
import { keptSessions } from '../library/keptSessions';
import type { Library } from '../library/library';
import { pathKey } from '../platform/pathKey';
import { queryWords, timeOf } from '../library/query';
import type { Scope, SearchFilter, SearchHit } from '../library/types';
import { hasFilters, parseFilters, passes, type SearchFilters } from './searchFilters';
import { warmFirstScreen } from '../chat/firstScreen';

/** How many kept sessions a search may return to the picker. */
const MAX_HITS = 200;
/**
 * The hits a keystroke's first answer holds: more than a tall picker shows. A snippet reads its
 * session's matching chunk, so 250 of them cost several times what the first screen does; the
 * rest follow in a second search once no newer keystroke waits.
 */
export const FIRST_HITS = 25;
/**
 * More are asked for than shown: archived sessions leave a few out after the library ranked
 * them, and `file:` many more (the library filters by the others itself).
 */
const MAX_FILTERED = 1000;
const MAX_ARCHIVED = 50;

/**
 * Which kept sessions content search covers: the window's folders (the one folder, in a window
 * of one), or everything kept (every agent, every folder, open in this window or not).
 */
export type SearchScope = 'window' | 'everything';

/** A hit as the picker shows it. */
export interface FoundHit extends SearchHit {
  /** Archived (on this side or by its agent): found only when the user asked (`is:archived`). */
  archived?: boolean;
}

export interface ContentSearchOptions {
  /** Whether a session is archived; archived sessions are left out unless asked for. */
  archived?: (agentId: string, sessionId: string) => boolean;
  /** An agent's name, for `agent:` to match it as well as the id. */
  agentName?: (agentId: string) => string | undefined;
  /** The agents whose names `agent:` may match (the configured ones). */
  agentIds?: () => readonly string[];
  /**
   * For `file:`: the sessions whose turns changed a file whose path holds `like` (the
   * checkpoints' journals of `folders`), beside those whose tool calls named one (the library).
   */
  changedFiles?: ChangedFiles;
}

export type ChangedFiles = (
  like: string,
  folders: readonly string[],
) => Promise<readonly { sessionId: string; path: string }[]>;

/**
 * What Resume Session finds in the text of its folders' kept sessions: the hits of the latest
 * typed value, ranked by the library (every word first, then the most recent). One search is
 * with the library's worker at a time: keystrokes typed meanwhile are superseded by the last of
 * them, which is sent when that search answers, and an answer to an older value is dropped.
 */
export class ContentSearch {
  /** The value typed last, and whether its hits are still to come. */
  private latest = '';
  private waiting = false;
  /** The hits shown are a first answer's: the rest are being searched for. */
  private partial = false;
  /** The value whose search the worker has now, if any. */
  private inFlight: string | undefined;
  private found: readonly FoundHit[] = [];
  private byKey = new Map<string, FoundHit>();
  private scopeNow: SearchScope = 'window';
  private filtersNow: SearchFilters = parseFilters('');

  /** `changed`: the hits of the latest value arrived (the same as before, or not), or were cleared. */
  constructor(
    private readonly client: () => Library | undefined,
    private readonly cwds: readonly string[],
    private readonly changed: () => void,
    private readonly options: ContentSearchOptions = {},
  ) {
    // The box just opened: what the first keystroke's search reads is read meanwhile.
    void this.client()
      ?.warm()
      .catch(() => {});
  }

  /** The hits, best first; the same array while they are unchanged. */
  get hits(): readonly FoundHit[] {
    return this.found;
  }

  get scope(): SearchScope {
    return this.scopeNow;
  }

  /** The words searched for in the value typed last (folded, filters left out). */
  get words(): string[] {
    return queryWords(this.filtersNow.text);
  }

  /** The filters of the value typed last. */
  get filters(): SearchFilters {
    return this.filtersNow;
  }

  /** Searches the latest value again over another scope. */
  setScope(scope: SearchScope): void {
    if (scope === this.scopeNow) return;
    this.scopeNow = scope;
    this.run(this.latest);
  }

  /** The hits of the value typed last are still to come. */
  get pending(): boolean {
    return this.waiting;
  }

  /** All the hits of the value typed last are here (not only the first answer's). */
  get complete(): boolean {
    return !this.waiting && !this.partial;
  }

  hit(agentId: string, sessionId: string): FoundHit | undefined {
    return this.byKey.get(sessionKey(agentId, sessionId));
  }

  /** Searches for `typed`: now, or once the search under way answers. */
  run(typed: string): void {
    this.latest = typed;
    this.partial = false;
    this.filtersNow = parseFilters(typed);
    const asked = queryWords(this.filtersNow.text).length > 0 || this.filtersNow.file !== undefined;
    if (!this.client() || !asked) {
      this.waiting = false;
      if (this.found.length) this.set([]);
      return;
    }
    this.waiting = true;
    if (this.inFlight === undefined) this.send(typed);
  }

  /** `rest`: the whole search of a value whose first answer is shown. */
  private send(typed: string, rest = false): void {
    const client = this.client();
    if (!client) {
      this.waiting = false;
      this.partial = false;
      if (this.found.length) this.set([]);
      return;
    }
    const scope = this.scopeNow;
    const filters = parseFilters(typed);
    this.inFlight = typed;
    // One folder: the library filters by it. Several, or everything: all kept sessions, kept
    // here to the window's folders unless everything was asked for.
    const one = scope === 'window' && this.cwds.length === 1 ? this.cwds[0] : undefined;
    const keys = new Set(this.cwds.map((c) => pathKey(c)));
    const answered = (hits: readonly SearchHit[], touched?: ReadonlyMap<string, SearchHit>) => {
      this.inFlight = undefined;
      if (!this.waiting && !this.partial) return;
      if (typed !== this.latest || scope !== this.scopeNow) return this.send(this.latest);
      this.waiting = false;
      // A first answer that was cut at its limit: the rest next, unless a keystroke comes first.
      this.partial = !rest && touched === undefined && hits.length >= limit;
      const archived = this.options.archived ?? (() => false);
      const found: FoundHit[] = [];
      for (const h of hits) {
        if (scope === 'window' && one === undefined && !keys.has(pathKey(h.cwd))) continue;
        if (!passes(filters, { ...h, agentName: this.options.agentName?.(h.agentId) })) continue;
        if (touched && !touched.has(h.sessionId)) continue;
        if (!archived(h.agentId, h.sessionId)) found.push(h);
        else if (filters.archived) found.push({ ...h, archived: true });
        if (found.length === MAX_HITS) break;
      }
      this.set(found);
      if (this.partial) this.send(typed, true);
    };
    const limit = filters.file !== undefined ? MAX_FILTERED : rest ? MAX_HITS + MAX_ARCHIVED : FIRST_HITS;
    const where = one !== undefined ? { cwd: one } : {};
    const words = queryWords(filters.text).length > 0;
    void Promise.all([
      words ? client.search(filters.text, where, limit, this.libraryFilter(filters)) : undefined,
      filters.file !== undefined ? this.touching(client, filters.file, where, scope) : undefined,
    ]).then(
      ([hits, touched]) => answered(hits ?? [...(touched?.values() ?? [])], touched),
      () => {
        if (!rest || typed !== this.latest) return answered([]);
        // The rest failing leaves the first answer shown.
        this.inFlight = undefined;
        this.partial = false;
      },
    );
  }

  /** The typed filters the library applies before it ranks and makes snippets (all but `file:`). */
  private libraryFilter(f: SearchFilters): SearchFilter | undefined {
    if (!hasFilters(f)) return undefined;
    const out: SearchFilter = {};
    const agent = f.agent;
    if (agent !== undefined) {
      out.agentLike = agent;
      out.agentIds = (this.options.agentIds?.() ?? []).filter((id) =>
        `${id}\n${this.options.agentName?.(id) ?? ''}`.toLowerCase().includes(agent),
      );
    }
    if (f.folder !== undefined) out.folderLike = f.folder;
    if (f.after !== undefined) out.after = f.after;
    if (f.before !== undefined) out.before = f.before;
    return out;
  }

  /**
   * The sessions that touched a file whose path holds `like`, by session id: those whose turns
   * changed one (the checkpoints' journals) and those whose tool calls named one (the library),
   * newest first, each as a hit whose line is the file and whose entry is the first that named it.
   * Everything kept reads the journals of every folder a kept session worked in, not only the window's.
   */
  private async touching(
    client: Library,
    like: string,
    where: Scope,
    scope: SearchScope,
  ): Promise<Map<string, SearchHit>> {
    const folders = async () =>
      scope === 'everything' ? [...new Set((await client.sessions({})).map((k) => k.cwd))] : this.cwds;
    const [named, changed] = await Promise.all([
      client.touchedLike(like, where),
      this.options.changedFiles
        ? folders()
            .then((f) => this.options.changedFiles!(like, f))
            .catch(() => [])
        : [],
    ]);
    const out = new Map<string, SearchHit>();
    const hit = (h: Omit<SearchHit, 'matched' | 'words'>): SearchHit => ({ ...h, matched: 0, words: 0 });
    for (const h of named) {
      if (out.has(h.sessionId)) continue;
      const { path, ...rest } = h;
      out.set(h.sessionId, hit({ ...rest, snippet: path }));
    }
    const more = changed.filter((c) => !out.has(c.sessionId));
    if (more.length) {
      const kept = await keptSessions(client, where.cwd !== undefined ? [where.cwd] : 'everything');
      for (const c of more) {
        const k = kept(c.sessionId);
        if (!k || out.has(c.sessionId)) continue;
        out.set(
          c.sessionId,
          hit({
            agentId: k.agentId,
            sessionId: k.sessionId,
            cwd: k.cwd,
            snippet: c.path,
            ...(k.title !== undefined ? { title: k.title } : {}),
            ...(k.updatedAt !== undefined ? { updatedAt: k.updatedAt } : {}),
          }),
        );
      }
    }
    return new Map(
      [...out].sort(([, a], [, b]) => (timeOf(b.updatedAt) ?? -Infinity) - (timeOf(a.updatedAt) ?? -Infinity)),
    );
  }

  /** Of the sessions listed, how many the library keeps whole (searchable by content). */
  async searchable(listed: ReadonlySet<string>): Promise<number | undefined> {
    const client = this.client();
    if (!client) return undefined;
    const one = this.cwds.length === 1 ? this.cwds[0] : undefined;
    // With several folders, `listed` (the rows of their lists) keeps the count to them.
    const kept = await client.sessions(one !== undefined ? { cwd: one } : {}).catch(() => undefined);
    return kept?.filter((k) => k.entries > 0 && listed.has(sessionKey(k.agentId, k.sessionId))).length;
  }

  private set(hits: readonly FoundHit[]): void {
    if (!sameHits(hits, this.found)) {
      this.found = hits;
      this.byKey = new Map(hits.map((h) => [sessionKey(h.agentId, h.sessionId), h]));
    }
    this.changed();
    // A hit may be opened next: its chat paints the message first, with a renderer ready by then.
    if (hits.length) void warmFirstScreen();
  }
}

/** The same sessions in the same order, with the same snippets and counts. */
function sameHits(a: readonly FoundHit[], b: readonly FoundHit[]): boolean {
  return (
    a.length === b.length &&
    a.every((h, i) => {
      const o = b[i]!;
      return (
        h.agentId === o.agentId &&
        h.sessionId === o.sessionId &&
        h.snippet === o.snippet &&
        h.matched === o.matched &&
        h.words === o.words &&
        h.cwd === o.cwd &&
        h.title === o.title &&
        h.updatedAt === o.updatedAt &&
        h.archived === o.archived &&
        h.entryIndex === o.entryIndex
      );
    })
  );
}
