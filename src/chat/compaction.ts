/**
 * Context compaction as the thread shows it: one notice per `compactionId`, patched in place
 * (CompactionUpdate: the first notification fixes the compaction's place in the timeline).
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { NoticeEntry } from '../protocol/entries';

/** What the thread remembers of one compaction. */
interface Compaction {
  /** The index of its notice entry. */
  index: number;
  status: string;
  summary: string;
  error?: string;
}

const textOf = (blocks: readonly ContentBlock[]) => blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');

/** Applies a `compaction_update`: summary and error are patches (absent leaves, null clears, a value replaces; `[]` clears too). */
function patchCompaction(c: Compaction, u: Extract<SessionUpdate, { sessionUpdate: 'compaction_update' }>): void {
  c.status = u.status;
  if (u.summary !== undefined) c.summary = u.summary ? textOf(u.summary) : '';
  if (u.error !== undefined) c.error = u.error ?? undefined;
}

/** The notice for a compaction's current state. */
function compactionNotice(c: Compaction): NoticeEntry {
  const description = [c.summary, c.error].filter(Boolean).join('\n\n');
  const notice = (severity: NoticeEntry['severity'], title: string): NoticeEntry =>
    description ? { type: 'notice', severity, title, description } : { type: 'notice', severity, title };
  switch (c.status) {
    case 'completed':
      return notice('info', 'Context compacted');
    case 'failed':
      return notice('error', 'Context compaction failed');
    case 'cancelled':
      return notice('warning', 'Context compaction cancelled');
    default:
      return notice('info', 'Compacting context…');
  }
}

type CompactionUpdate = Extract<SessionUpdate, { sessionUpdate: 'compaction_update' | 'compaction_summary_chunk' }>;

/** The compactions of one thread, each shown as one notice that changes in place. */
export class Compactions {
  private readonly byId = new Map<string, Compaction>();

  /** `place` appends a notice and says where; `show` puts a notice at its place again. */
  constructor(
    private readonly place: (notice: NoticeEntry) => number,
    private readonly show: (index: number, notice: NoticeEntry) => void,
  ) {}

  apply(u: CompactionUpdate): void {
    let c = this.byId.get(u.compactionId);
    if (!c) {
      // The first notification fixes the compaction's place in the timeline (CompactionUpdate).
      c = { index: this.place({ type: 'notice', severity: 'info', title: '' }), status: 'in_progress', summary: '' };
      this.byId.set(u.compactionId, c);
    }
    if (u.sessionUpdate === 'compaction_update') patchCompaction(c, u);
    else if (u.content.type === 'text') c.summary += u.content.text;
    this.show(c.index, compactionNotice(c));
  }

  /** The thread started over: the notices are gone. */
  clear(): void {
    this.byId.clear();
  }
}
