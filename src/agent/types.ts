import type { McpServer, SessionInfo } from '@agentclientprotocol/sdk';

/** One agent as configured in `acp.agents`, after validation. */
export interface AgentConfig {
  /** Unique, `[A-Za-z0-9._-]+`. */
  readonly id: string;
  /** Display name; defaults to the id. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Set over the inherited environment. Values are never logged. */
  readonly env: Readonly<Record<string, string>>;
  /** False: `fs/write_text_file` is neither announced nor served. Default true (the agent asks permission itself). */
  readonly allowFileWrites?: boolean;
  /** False: `terminal/*` is neither announced nor served. Default true. */
  readonly allowTerminals?: boolean;
  /** This agent's MCP servers; they replace same-named ones of `acp.mcpServers`. */
  readonly mcpServers?: readonly McpServer[];
  /** Set by Add Agent for an agent installed from the ACP Registry: what it installed. */
  readonly registry?: RegistryMark;
}

/** Which registry agent an entry was installed from, at which version, and how. */
export interface RegistryMark {
  readonly id: string;
  readonly version: string;
  readonly distribution: 'npx' | 'uvx' | 'binary';
}

/**
 * A listed session as checked: the stable fields, plus the unstable `archived` flag when the
 * agent sent it, and its lineage where the agent reports one (drafts, top level or in `_meta`):
 * `aliases`, other ids of the same conversation (Claude Code after `/clear`), and `forkedFrom`,
 * the session it was forked from.
 */
export type ListedSession = SessionInfo & { archived?: boolean; aliases?: string[]; forkedFrom?: string };

/** Which sessions `session/list` returns by archive state; sent only to agents that advertise `archive`. */
export type ArchivedFilter = 'exclude' | 'include' | 'only';

/** The params of one `session/list` request (no `cwd`: every folder's sessions). */
export type ListParams = { cwd?: string; cursor?: string; archived?: ArchivedFilter };

/**
 * One validated `session/list` page. The SDK does not validate responses on the client side,
 * so entries of the wrong shape (non-string id, relative cwd…) were dropped and counted.
 */
export interface ListPage {
  readonly sessions: readonly ListedSession[];
  /** Absent or `null` on the wire both mean the end: `undefined` here. */
  readonly nextCursor: string | undefined;
  /** How many entries were dropped for their shape. */
  readonly dropped: number;
  /**
   * Set when the page's rows are kept but paging cannot go on (a `nextCursor` that is not a
   * string): why, in words, so the list can say paging stopped.
   */
  readonly pagingStopped?: string;
  /** The agent sent a `nextCursor` that is not a string: the rows stand, paging cannot go on. */
  readonly badCursor?: true;
}

/** Fetches one page of sessions for a cwd. `signal` aborts the wait (and cancels the request). */
export type ListSessions = (
  params: { cwd: string; cursor?: string; archived?: ArchivedFilter },
  signal?: AbortSignal,
) => Promise<ListPage>;
