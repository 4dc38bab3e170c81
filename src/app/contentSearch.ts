import { sessionKey } from '../agent/sessionKey';
import type { Library } from '../library/library';
import { pathKey } from '../library/pathKey';
import { queryWords } from '../library/query';
import type { SearchHit } from '../library/types';

/** How many kept sessions a search may return to the picker. */
const MAX_HITS = 200;

/**
 * What Resume Session finds in the text of its folders' kept sessions: the hits of the latest
 * typed value, ranked by the library (every word first, then the most recent). Each keystroke
 * asks the library's worker; an answer to an older value is dropped.
 */
export class ContentSearch {
  private seq = 0;
  private found: readonly SearchHit[] = [];
  private byKey = new Map<string, SearchHit>();

  constructor(
    private readonly client: () => Library | undefined,
    private readonly cwds: readonly string[],
    private readonly changed: () => void,
  ) {}

  /** The hits, best first. */
  get hits(): readonly SearchHit[] {
    return this.found;
  }

  hit(agentId: string, sessionId: string): SearchHit | undefined {
    return this.byKey.get(sessionKey(agentId, sessionId));
  }

  /** Searches for `typed`; `changed` is called when its hits arrive (or were cleared). */
  run(typed: string): void {
    const seq = ++this.seq;
    const client = this.client();
    if (!client || queryWords(typed).length === 0) {
      if (this.found.length) this.set([]);
      return;
    }
    // One folder: the library filters by it. Several: all kept sessions, kept to these folders.
    const one = this.cwds.length === 1 ? this.cwds[0] : undefined;
    const keys = new Set(this.cwds.map((c) => pathKey(c)));
    client.search(typed, one !== undefined ? { cwd: one } : {}, MAX_HITS).then(
      (hits) => {
        if (seq === this.seq) this.set(one !== undefined ? hits : hits.filter((h) => keys.has(pathKey(h.cwd))));
      },
      () => {
        if (seq === this.seq) this.set([]);
      },
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

  private set(hits: readonly SearchHit[]): void {
    this.found = hits;
    this.byKey = new Map(hits.map((h) => [sessionKey(h.agentId, h.sessionId), h]));
    this.changed();
  }
}
