// `seed`: fills a store with sessions for tests, the demo and benchmarks. Seeded histories are
// deterministic and regenerated on load (see store.ts), so seeding writes only the index and
// 10,000 sessions take well under a second even on a busy disk.
import { randomBytes } from 'node:crypto';
import { seededTitle, seededTurn } from './content';
import type { SeedOptions } from './options';
import { type IndexEntry, SessionStore } from './store';

const spacingMs = 7 * 60 * 1000 + 13 * 1000;

export function newSessionId(): string {
  return `sess_${randomBytes(8).toString('hex')}`;
}

export interface SeedResult {
  sessions: number;
  /** Updates and bytes of the first 100 sessions' replays (all of them in smaller stores). */
  updates: number;
  bytes: number;
  ms: number;
}

export function seed(options: SeedOptions): SeedResult {
  const started = Date.now();
  const store = new SessionStore(options.store);
  // Seeded sessions are older than anything created from now on, and spaced so the list shows
  // a spread of relative times ("5 min ago" … "3 months ago").
  const newest = started - 60 * 1000;
  const entries: IndexEntry[] = [];
  let updates = 0;
  let bytes = 0;
  for (let i = 0; i < options.sessions; i++) {
    const cwd = options.cwds[i % options.cwds.length];
    const sessionId = newSessionId();
    // Counting what a replay will send costs a generation; skip it for big stores.
    if (i < 100) {
      for (let turn = 0; turn < options.turns; turn++) {
        for (const update of seededTurn(cwd, turn, i)) {
          updates++;
          bytes += JSON.stringify(update).length + 1;
        }
      }
    }
    entries.push({
      sessionId,
      cwd,
      updatedAt: new Date(newest - i * spacingMs).toISOString(),
      title: options.turns > 0 ? seededTitle(options.titleStyle, i) : null,
      turns: options.turns,
      seeded: { turns: options.turns, index: i },
    });
  }
  store.addMany(entries);
  store.saveIndex();
  return { sessions: options.sessions, updates, bytes, ms: Date.now() - started };
}
