// Builders of `session/update` payloads, after vscode-pull-request-github's test builders: a
// test names the fields it is about, and every other field the schema requires gets a valid
// value. Typed by the SDK's schema, so a payload a test builds is one an agent may send.
import type { ContentBlock, PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk';

/** One kind of update, and its fields without the kind. */
type Update<K extends SessionUpdate['sessionUpdate']> = Extract<SessionUpdate, { sessionUpdate: K }>;
type Fields<K extends SessionUpdate['sessionUpdate']> = Omit<Update<K>, 'sessionUpdate'>;

/** A text content block. */
export const text = (t: string): ContentBlock => ({ type: 'text', text: t });

function chunk<K extends 'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk'>(
  kind: K,
  content: string | ContentBlock,
  messageId?: string,
): Update<K> {
  return {
    sessionUpdate: kind,
    content: typeof content === 'string' ? text(content) : content,
    ...(messageId ? { messageId } : {}),
  } as Update<K>;
}

/** A chunk of the user's message (a prompt echoed, or replayed by a load). */
export const userChunk = (content: string | ContentBlock, messageId?: string) =>
  chunk('user_message_chunk', content, messageId);

/** A chunk of the agent's reply. */
export const agentChunk = (content: string | ContentBlock, messageId?: string) =>
  chunk('agent_message_chunk', content, messageId);

/** A chunk of the agent's thinking. */
export const thoughtChunk = (content: string | ContentBlock, messageId?: string) =>
  chunk('agent_thought_chunk', content, messageId);

/** A tool call announced; its title is "Run a tool" unless named. */
export const toolCall = (toolCallId: string, fields: Partial<Fields<'tool_call'>> = {}): Update<'tool_call'> => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  title: 'Run a tool',
  ...fields,
});

/** An update of a tool call: only the fields named change. */
export const toolCallUpdate = (
  toolCallId: string,
  fields: Partial<Fields<'tool_call_update'>> = {},
): Update<'tool_call_update'> => ({ sessionUpdate: 'tool_call_update', toolCallId, ...fields });

/** The plan, its entries by their text (pending, of medium priority) or whole. */
export const planUpdate = (entries: ReadonlyArray<string | PlanEntry>): Update<'plan'> => ({
  sessionUpdate: 'plan',
  entries: entries.map((e) => (typeof e === 'string' ? { content: e, priority: 'medium', status: 'pending' } : e)),
});

/** The session's title or time, as the agent reports them. */
export const sessionInfoUpdate = (fields: Fields<'session_info_update'>): Update<'session_info_update'> => ({
  sessionUpdate: 'session_info_update',
  ...fields,
});

/** The context window's use, and the cost when named. */
export const usageUpdate = (
  used: number,
  size: number,
  fields: Partial<Fields<'usage_update'>> = {},
): Update<'usage_update'> => ({ sessionUpdate: 'usage_update', used, size, ...fields });

/** A notice for the user; of severity "info" unless named. */
export const noticeUpdate = (title: string, fields: Partial<Fields<'notice'>> = {}): Update<'notice'> => ({
  sessionUpdate: 'notice',
  severity: 'info',
  title,
  ...fields,
});

/** The commands the agent offers, by name (each with a description). */
export const commandsUpdate = (names: readonly string[]): Update<'available_commands_update'> => ({
  sessionUpdate: 'available_commands_update',
  availableCommands: names.map((name) => ({ name, description: `The ${name} command` })),
});

/** The session's mode changed. */
export const modeUpdate = (currentModeId: string): Update<'current_mode_update'> => ({
  sessionUpdate: 'current_mode_update',
  currentModeId,
});
