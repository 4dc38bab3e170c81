import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentConnection } from './connection';
import { ProtocolError } from './errors';
import type { ForkSessionResponse } from './unstable';
import { checkEmptyResult, validateForkResult, validateSetTitleResult } from './validate';

/**
 * The unstable session-management calls, each gated by the capability that advertises it:
 * an agent that does not advertise one is never sent it (the UI offers the client's own
 * rename and archive instead, and no fork). Method names are spelled here because the stable
 * entry's `methods` does not carry them (see `unstable.ts`).
 */
export const ManageMethods = {
  setTitle: 'session/set_title',
  archive: 'session/archive',
  unarchive: 'session/unarchive',
  fork: 'session/fork',
} as const;

function refuse(c: AgentConnection, method: string, what: string): never {
  throw new ProtocolError(c.config.name, method, `This agent cannot ${what}.`);
}

/**
 * `session/set_title`: the agent stores the name. Returns the title the agent stored, which
 * may differ from the one sent (agents trim and cut titles).
 */
export async function setSessionTitle(c: AgentConnection, sessionId: string, title: string): Promise<string> {
  const method = ManageMethods.setTitle;
  if (!c.features.title) refuse(c, method, 'rename sessions');
  const result = await c.call<unknown>(method, { sessionId, title }, { timeoutMs: c.timeouts.other });
  return c.validated(method, (note) => validateSetTitleResult(result, title, note));
}

/** `session/archive` or `session/unarchive`. The agent closes an active session it archives. */
export async function setSessionArchived(c: AgentConnection, sessionId: string, archived: boolean): Promise<void> {
  const method = archived ? ManageMethods.archive : ManageMethods.unarchive;
  if (!c.features.archive) refuse(c, method, archived ? 'archive sessions' : 'unarchive sessions');
  const result = await c.call<unknown>(method, { sessionId }, { timeoutMs: c.timeouts.other });
  c.validated(method, (note) => checkEmptyResult(result, note));
}

export interface ForkParams {
  readonly sessionId: string;
  readonly cwd: string;
  readonly additionalDirectories?: readonly string[];
  readonly mcpServers?: readonly McpServer[];
}

/**
 * `session/fork`: a new session that starts from the source's history. Like `session/new`,
 * the fork is open on this connection when the answer comes; register the new id with the
 * router before anything else is sent for it. Takes as long as creating a session may.
 */
export async function forkSession(c: AgentConnection, params: ForkParams): Promise<ForkSessionResponse> {
  const method = ManageMethods.fork;
  if (!c.features.fork) refuse(c, method, 'fork sessions');
  const sent: Record<string, unknown> = { sessionId: params.sessionId, cwd: params.cwd };
  if (params.additionalDirectories?.length && c.features.additionalDirectories)
    sent.additionalDirectories = params.additionalDirectories;
  if (params.mcpServers) sent.mcpServers = params.mcpServers;
  const result = await c.call<unknown>(method, sent, { timeoutMs: c.timeouts.newSession });
  return c.validated(method, (note) => validateForkResult(result, note));
}
