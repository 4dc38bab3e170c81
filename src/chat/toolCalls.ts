import type { SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { ToolCallEntry } from '../protocol/entries';

/** A `tool_call` or `tool_call_update`: the fields a tool call's entry is made from. */
export type ToolFields = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

const toolKinds = new Set<string>([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const toolStatuses = new Set<string>(['pending', 'in_progress', 'completed', 'failed']);

/** Still running: an interrupted turn marks it failed. */
export const isOpenStatus = (s: ToolCallStatus) => s === 'pending' || s === 'in_progress';

/** A kind or status this schema does not know: left out rather than dropping the update. */
const known = (u: ToolFields) => ({
  kind: u.kind && toolKinds.has(u.kind) ? u.kind : undefined,
  status: u.status && toolStatuses.has(u.status) ? u.status : undefined,
});

/** The entry of a tool call seen for the first time (announced, or only updated: it shows what it has). */
export function newToolEntry(u: ToolFields): ToolCallEntry {
  const { kind, status } = known(u);
  const entry: ToolCallEntry = {
    type: 'tool',
    toolCallId: u.toolCallId,
    title: u.title ?? 'Tool call',
    kind: kind ?? 'other',
    status: status ?? 'pending',
    content: u.content ?? [],
    locations: u.locations ?? [],
  };
  if (u.rawInput != null) entry.rawInput = u.rawInput;
  if (u.rawOutput != null) entry.rawOutput = u.rawOutput;
  return entry;
}

/**
 * ToolCallUpdate: only the fields it carries change; null and absent both mean unchanged (an
 * update without `content` keeps the diff shown). Returns the new status when it carried one.
 */
export function mergeToolUpdate(entry: ToolCallEntry, u: ToolFields): ToolCallStatus | undefined {
  const { kind, status } = known(u);
  if (u.title != null) entry.title = u.title;
  if (u.kind) entry.kind = kind ?? 'other';
  if (status) entry.status = status;
  if (u.content != null) entry.content = u.content;
  if (u.locations != null) entry.locations = u.locations;
  if (u.rawInput != null) entry.rawInput = u.rawInput;
  if (u.rawOutput != null) entry.rawOutput = u.rawOutput;
  return status;
}
