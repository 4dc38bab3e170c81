/**
 * The briefing that carries a session over to another agent ("Continue in Another Agent…"):
 * Markdown drafted from the session's kept transcript, which the user edits in the new chat's
 * composer before anything is sent. Built from the library's copy only, so every secret the
 * library masked stays masked here.
 *
 * What it holds, in order: the goal (the user's first message, and the second when the first is
 * short), the plan (the last `plan` update), the files the session changed (edits' and diffs'
 * paths, and the files a turn's checkpoint saw change that no tool call named), then the last
 * turns. Over `maxChars`, the oldest of those turns are left out whole (a turn is a user message
 * and what followed it), and the briefing says how many.
 */
import type { PlanEntry } from '@agentclientprotocol/sdk';
import type { MessageEntry, PlanEntryView, ThreadEntry, ToolCallEntry } from '../protocol/entries';

export interface BriefingSource {
  /** The display name of the agent the session ran with. */
  agentName: string;
  title?: string;
  sessionId: string;
  cwd: string;
}

export interface Briefing {
  text: string;
  /** Turns in the transcript, and how many of the last ones the briefing holds. */
  turns: number;
  turnsShown: number;
  /** Some turns were left out to keep within the limit. */
  cut: boolean;
}

/** The setting that caps a briefing, named in the briefing when it was cut. */
export const MAX_BRIEFING_SETTING = 'acp.handoff.maxBriefingChars';
export const DEFAULT_MAX_BRIEFING_CHARS = 12_000;
/** Below this the goal and a turn hardly fit; the setting's minimum. */
export const MIN_BRIEFING_CHARS = 1_000;
/** A first message shorter than this says little alone: the second joins it in the goal. */
const SHORT_GOAL = 280;
const MAX_FILES = 50;

interface Turn {
  user: MessageEntry;
  replies: string[];
}

/** The briefing of a kept transcript, within `maxChars` (at least {@link MIN_BRIEFING_CHARS}). */
export function draftBriefing(entries: readonly ThreadEntry[], source: BriefingSource, maxChars: number): Briefing {
  const limit = Math.max(MIN_BRIEFING_CHARS, Math.floor(maxChars));
  const turns = turnsOf(entries);
  const goalTurns = turns.length > 1 && turns[0]!.user.text.trim().length < SHORT_GOAL ? 2 : Math.min(1, turns.length);
  // The head may take half the limit; each goal message its share of that, cut within itself.
  const goalShare = Math.floor(limit / 4 / Math.max(1, goalTurns));
  const head = [
    `# Continued from ${source.agentName} — ${titleOf(source)}`,
    `This conversation continues a session held with ${source.agentName} in \`${source.cwd}\`. ` +
      'What follows was drafted from its kept transcript.',
    section(
      'Goal',
      turns
        .slice(0, goalTurns)
        .map((t) => clip(t.user.text.trim(), goalShare))
        .join('\n\n'),
    ),
    section('Plan', planText(entries)),
    section('Files changed', filesText(entries, source.cwd)),
  ].filter(Boolean);
  const headText = clip(head.join('\n\n'), Math.floor(limit / 2));
  const rendered = turns.map((t, i) => turnText(t, i < goalTurns, source.agentName));
  const cutNote = (left: number) =>
    `_${left} earlier ${left === 1 ? 'turn was' : 'turns were'} left out: the briefing is capped at ` +
    `${limit} characters (\`${MAX_BRIEFING_SETTING}\`)._`;
  // The newest turns first, whole, while they fit beside the head and the note saying what was left out.
  const room = limit - headText.length - '\n\n## Last turns\n\n'.length - cutNote(turns.length).length - 2;
  let used = 0;
  let shown = 0;
  for (let i = rendered.length - 1; i >= 0; i--) {
    const size = rendered[i]!.length + 2;
    if (used + size > room) break;
    used += size;
    shown++;
  }
  const left = turns.length - shown;
  const last = rendered.slice(rendered.length - shown);
  const body = [
    headText,
    turns.length ? `## Last turns\n\n${[...(left ? [cutNote(left)] : []), ...last].join('\n\n')}` : '',
  ].filter(Boolean);
  return { text: body.join('\n\n'), turns: turns.length, turnsShown: shown, cut: left > 0 };
}

/** The one-line briefing of a session the library keeps nothing of. */
export function emptyBriefing(source: BriefingSource): string {
  return (
    `Continued from ${source.agentName} — ${titleOf(source)} (session ${source.sessionId} in \`${source.cwd}\`); ` +
    'nothing of it was kept to brief you with.'
  );
}

function titleOf(source: BriefingSource): string {
  return source.title?.trim() || `Untitled session ${source.sessionId.slice(0, 8)}`;
}

/** The user's messages, each with the agent's replies until the next one; what came before the first is left out. */
function turnsOf(entries: readonly ThreadEntry[]): Turn[] {
  const turns: Turn[] = [];
  for (const entry of entries) {
    if (entry.type === 'user') turns.push({ user: entry, replies: [] });
    else if (entry.type === 'agent' && entry.text.trim()) turns.at(-1)?.replies.push(entry.text.trim());
  }
  return turns;
}

function turnText(turn: Turn, inGoal: boolean, agentName: string): string {
  const asked = inGoal ? '_(the goal above)_' : turn.user.text.trim();
  const answered = turn.replies.length ? turn.replies.join('\n\n') : '_(no reply)_';
  return `**User:** ${asked}\n\n**${agentName}:** ${answered}`;
}

function section(heading: string, text: string): string {
  return text ? `## ${heading}\n\n${text}` : '';
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

const MARKS: Record<PlanEntry['status'], string> = { completed: '[x]', in_progress: '[~]', pending: '[ ]' };

function planText(entries: readonly ThreadEntry[]): string {
  let plan: PlanEntryView | undefined;
  for (const e of entries) if (e.type === 'plan') plan = e;
  if (!plan) return '';
  return plan.entries.map((p) => `- ${MARKS[p.status] ?? '[ ]'} ${p.content.trim()}`).join('\n');
}

/** Tool kinds that change files (a read or a search only looks). */
const CHANGING = new Set<ToolCallEntry['kind']>(['edit', 'delete', 'move']);

function filesText(entries: readonly ThreadEntry[], cwd: string): string {
  const files = new Set<string>();
  for (const e of entries) {
    if (e.type === 'tool') {
      for (const c of e.content) if (c.type === 'diff' && c.path) files.add(c.path);
      if (CHANGING.has(e.kind)) for (const l of e.locations) if (l.path) files.add(l.path);
    } else if (e.type === 'changes') {
      for (const path of e.unnamed) files.add(path);
    }
  }
  const list = [...files].map((f) => relativeTo(f, cwd));
  const shown = list.slice(0, MAX_FILES).map((f) => `- \`${f}\``);
  if (list.length > MAX_FILES) shown.push(`- …and ${list.length - MAX_FILES} more`);
  return shown.join('\n');
}

/** A path inside the session's folder, relative to it (either separator: the agent may run on Windows). */
function relativeTo(path: string, cwd: string): string {
  const base = cwd.replace(/[\\/]+$/, '');
  const sep = path.charAt(base.length);
  return base && path.startsWith(base) && (sep === '/' || sep === '\\') ? path.slice(base.length + 1) : path;
}
