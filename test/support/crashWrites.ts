// The writes of the library's crash test, shared by the writer processes it kills and the test
// that checks what the library kept: each write is a function of its number, so the test knows
// what every acknowledged one put in the file.
import type { SessionWrite } from '../../src/library/types';
import type { ThreadEntry } from '../../src/protocol/entries';

/** Sizes of write: one entry; ten; a long session's history replayed whole (a load, kept again). */
export type WriteSize = 'small' | 'medium' | 'large';
/** The process killed, or the one writing beside it (other sessions) and stopped at the round's end. */
export type WriterRole = 'victim' | 'companion';

export const SIZES: readonly WriteSize[] = ['small', 'medium', 'large'];

const FILLER = 'filler text for a longer entry, as a tool call or a reply would hold it. ';

interface Shape {
  sessions: number;
  entries: number;
  /** Repeats of the filler per entry. */
  filler: number;
  reset: boolean;
}

const SHAPES: Record<WriterRole, Record<WriteSize, Shape>> = {
  victim: {
    small: { sessions: 5, entries: 1, filler: 2, reset: false },
    medium: { sessions: 5, entries: 10, filler: 25, reset: false },
    large: { sessions: 3, entries: 240, filler: 25, reset: true },
  },
  companion: {
    small: { sessions: 4, entries: 5, filler: 10, reset: false },
    medium: { sessions: 4, entries: 5, filler: 10, reset: false },
    large: { sessions: 4, entries: 5, filler: 10, reset: false },
  },
};

export function sessionOf(role: WriterRole, size: WriteSize, n: number): string {
  return `${role}-${size}-${n % SHAPES[role][size].sessions}`;
}

/** The text of entry `i` of write `n`: its marker says which write put it there. */
export function entryText(role: WriterRole, n: number, i: number, filler: number): string {
  return `${role} write ${n} entry ${i} marker${role[0]}${n}x ${FILLER.repeat(filler)}`;
}

/** Write `n` of a writer: the entries it adds (or, for a replayed history, all of them). */
export function crashWrite(role: WriterRole, size: WriteSize, n: number): SessionWrite {
  const shape = SHAPES[role][size];
  const base = shape.reset ? 0 : Math.floor(n / shape.sessions) * shape.entries;
  const entries = Array.from({ length: shape.entries }, (_, i) => ({
    index: base + i,
    entry: {
      type: i % 2 ? 'agent' : 'user',
      text: entryText(role, n, i, shape.filler),
      attachments: [],
      done: true,
    } as ThreadEntry,
  }));
  const w: SessionWrite = {
    agentId: 'crash',
    sessionId: sessionOf(role, size, n),
    cwd: '/work/crash',
    entries,
    info: { title: `after ${n}`, updatedAt: new Date(1_700_000_000_000 + n * 1000).toISOString() },
  };
  if (shape.reset) w.reset = true;
  return w;
}

/** What the library must hold after a set of writes: per session, each entry's text by index. */
export class CrashModel {
  readonly sessions = new Map<string, Map<number, string>>();

  apply(w: SessionWrite): void {
    let s = this.sessions.get(w.sessionId);
    if (!s || w.reset) this.sessions.set(w.sessionId, (s = new Map()));
    for (const { index, entry } of w.entries ?? [])
      s.set(index, entry.type === 'user' || entry.type === 'agent' ? entry.text : '');
  }
}
