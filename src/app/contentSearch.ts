import { sessionKey } from '../agent/sessionKey';
import type { Library } from '../library/library';
import { pathKey } from '../library/pathKey';
import { queryWords } from '../library/query';
import type { SearchHit } from '../library/types';

/** How many kept sessions a search may return to the picker. */
const MAX_HITS = 200;

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
  /** The value whose search the worker has now, if any. */
  private inFlight: string | undefined;
  private found: readonly SearchHit[] = [];
  private byKey = new Map<string, SearchHit>();

  /** `changed`: the hits of the latest value arrived (the same as before, or not), or were cleared. */
  constructor(
    private readonly client: () => Library | undefined,
    private readonly cwds: readonly string[],
    private readonly changed: () => void,
  ) {}

  /** The hits, best first; the same array while they are unchanged. */
  get hits(): readonly SearchHit[] {
    return this.found;
  }

  /** The hits of the value typed last are still to come. */
  get pending(): boolean {
    return this.waiting;
  }

  hit(agentId: string, sessionId: string): SearchHit | undefined {
    return this.byKey.get(sessionKey(agentId, sessionId));
  }

  /** Searches for `typed`: now, or once the search under way answers. */
  run(typed: string): void {
    this.latest = typed;
    if (!this.client() || queryWords(typed).length === 0) {
      this.waiting = false;
      if (this.found.length) this.set([]);
      return;
    }
    this.waiting = true;
    if (this.inFlight === undefined) this.send(typed);
  }

  private send(typed: string): void {
    const client = this.client();
    if (!client) {
      this.waiting = false;
      if (this.found.length) this.set([]);
      return;
    }
    this.inFlight = typed;
    // One folder: the library filters by it. Several: all kept sessions, kept to these folders.
    const one = this.cwds.length === 1 ? this.cwds[0] : undefined;
    const keys = new Set(this.cwds.map((c) => pathKey(c)));
    const answered = (hits: readonly SearchHit[]) => {
      this.inFlight = undefined;
      if (!this.waiting) return;
      if (typed !== this.latest) return this.send(this.latest);
      this.waiting = false;
      this.set(one !== undefined ? hits : hits.filter((h) => keys.has(pathKey(h.cwd))));
    };
    client.search(typed, one !== undefined ? { cwd: one } : {}, MAX_HITS).then(answered, () => answered([]));
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

  private set(hits: readonly SearchHit[]): void {
    if (!sameHits(hits, this.found)) {
      this.found = hits;
      this.byKey = new Map(hits.map((h) => [sessionKey(h.agentId, h.sessionId), h]));
    }
    this.changed();
  }
}

/** The same sessions in the same order, with the same snippets and counts. */
function sameHits(a: readonly SearchHit[], b: readonly SearchHit[]): boolean {
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
        h.updatedAt === o.updatedAt
      );
    })
  );
}
