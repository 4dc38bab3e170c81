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
  entries.push(...marked(options, newest));
  store.addMany(entries);
  store.saveIndex();
  return { sessions: options.sessions, updates, bytes, ms: Date.now() - started };
}

/**
 * Sessions a client may want to hide, each placed just after a regular one so the first page
 * holds some: side chains marked as Claude Code marks its transcripts' entries, sub-agent
 * threads marked with Codex's session source, and sessions nobody wrote in.
 */
function marked(options: SeedOptions, newest: number): IndexEntry[] {
  const out: IndexEntry[] = [];
  const kinds: { count: number; title: string | null; meta?: Record<string, unknown> }[] = [
    { count: options.sidechains, title: 'Side chain: search the code', meta: { claudeCode: { isSidechain: true } } },
    { count: options.subagents, title: 'Sub-agent: review the change', meta: { codex: { source: 'subAgent' } } },
    { count: options.empty, title: null },
  ];
  let slot = 0;
  for (const kind of kinds) {
    for (let i = 0; i < kind.count; i++, slot++) {
      const turns = kind.title === null ? 0 : 1;
      out.push({
        sessionId: newSessionId(),
        cwd: options.cwds[slot % options.cwds.length],
        updatedAt: new Date(newest - slot * spacingMs - spacingMs / 2).toISOString(),
        title: kind.title === null ? null : `${kind.title} ${i + 1}`,
        turns,
        seeded: { turns, index: slot },
        ...(kind.meta ? { meta: kind.meta } : {}),
      });
    }
  }
  return out;
}
