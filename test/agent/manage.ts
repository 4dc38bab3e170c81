// The unstable session-management methods (`session/set_title`, `session/archive`,
// `session/unarchive`, `session/fork`), each served only while advertised: an agent without
// one answers "method not found", as a stable-only agent does.
import { isAbsolute } from 'node:path';
import {
  type AgentApp,
  type AgentContext,
  type McpServer,
  methods,
  RequestError,
  type SessionUpdate,
} from '@agentclientprotocol/sdk/unstable';
import type { Capability } from './options';
import { newSessionId } from './seed';
import type { IndexEntry, SessionStore } from './store';

/** The longest title the agent stores; longer ones are cut, as agents normalise titles. */
export const MAX_STORED_TITLE = 100;

export interface ManageDeps {
  store: SessionStore;
  refuseUnless(capability: Capability, method: string): void;
  requireStored(sessionId: string): IndexEntry;
  /** Ends the session's turn and forgets it as `session/close` would. */
  close(sessionId: string): void;
  /** Makes a forked session live and answers with its modes and options. */
  openFork(sessionId: string, mcpServers: McpServer[] | undefined, dirs: string[]): object;
  notify(client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void>;
}

/** Trims, joins lines, and cuts at {@link MAX_STORED_TITLE}; empty is refused with -32602. */
export function normalizeTitle(title: string): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean.length === 0) throw RequestError.invalidParams({ title }, 'the title is empty');
  return clean.length > MAX_STORED_TITLE ? clean.slice(0, MAX_STORED_TITLE) : clean;
}

export function addManagement(app: AgentApp, deps: ManageDeps): AgentApp {
  const { store } = deps;
  return app
    .onRequest(methods.agent.session.setTitle, async ({ params, client }) => {
      deps.refuseUnless('title', methods.agent.session.setTitle);
      deps.requireStored(params.sessionId);
      const title = normalizeTitle(params.title);
      store.update(params.sessionId, { title });
      // Clients that show the session hear of it as they hear of any title change.
      await deps.notify(client, params.sessionId, { sessionUpdate: 'session_info_update', title });
      return { title };
    })
    .onRequest(methods.agent.session.archive, ({ params }) => {
      deps.refuseUnless('archive', methods.agent.session.archive);
      deps.requireStored(params.sessionId);
      // "If the session is active, the Agent MUST cancel any ongoing work and free the
      // session's resources as if session/close had been called, then archive it."
      deps.close(params.sessionId);
      store.update(params.sessionId, { archived: true });
      return {};
    })
    .onRequest(methods.agent.session.unarchive, ({ params }) => {
      deps.refuseUnless('archive', methods.agent.session.unarchive);
      deps.requireStored(params.sessionId);
      store.update(params.sessionId, { archived: false });
      return {};
    })
    .onRequest(methods.agent.session.fork, ({ params }) => {
      deps.refuseUnless('fork', methods.agent.session.fork);
      const source = deps.requireStored(params.sessionId);
      if (!isAbsolute(params.cwd))
        throw RequestError.invalidParams({ cwd: params.cwd }, 'cwd must be an absolute path');
      const sessionId = newSessionId();
      const dirs = params.additionalDirectories ?? source.additionalDirectories ?? [];
      // The fork starts with the source's whole history, as a copy: later turns of either
      // session do not reach the other.
      store.add(
        {
          sessionId,
          cwd: params.cwd,
          updatedAt: new Date().toISOString(),
          title: source.title,
          turns: source.turns,
          ...(dirs.length ? { additionalDirectories: dirs } : {}),
          meta: { forkedFrom: source.sessionId },
        },
        store.readUpdates(source.sessionId),
      );
      return { sessionId, ...deps.openFork(sessionId, params.mcpServers, dirs) };
    });
}
