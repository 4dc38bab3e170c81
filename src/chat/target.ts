import type { SessionInfo } from '@agentclientprotocol/sdk';

/** How a chosen session is opened (`acp.openMode`). */
export type OpenMode = 'auto' | 'load' | 'resume';

/** What a chat is about: an existing session, or a new one in a folder. */
export interface ChatTarget {
  readonly agentId: string;
  /** Absent for a session not created yet. */
  sessionId?: string;
  readonly cwd: string;
  /**
   * Further roots asked for: the other folders of a multi-root window for a new session, what
   * the session reported for a load or resume. Only those that pass `directoriesToSend` are
   * sent, and only those become roots.
   */
  additionalDirectories?: readonly string[];
  title?: string;
}

/** The chat of a session the agent listed (a Sessions row, a Resume Session pick, a link). */
export function chatTarget(
  agentId: string,
  session: Pick<SessionInfo, 'sessionId' | 'cwd' | 'additionalDirectories' | 'title'>,
): ChatTarget {
  return {
    agentId,
    sessionId: session.sessionId,
    cwd: session.cwd,
    additionalDirectories: session.additionalDirectories,
    title: session.title ?? undefined,
  };
}
