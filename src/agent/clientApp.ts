import {
  client,
  methods,
  RequestError,
  type ClientApp,
  type ClientCapabilities,
  type CompleteElicitationNotification,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { ClientFileSystem } from './fileSystem';
import type { PinnedRoot } from './roots';
import type { UpdateRouter } from './router';
import type { Terminals } from './terminals';
import type { AgentConfig } from './types';
import { CHECKED_SESSION_UPDATE } from './wireTap';

/** What the agent may ask of us. Absent parts are neither announced nor served. */
export interface ClientHandlers {
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  fs?: ClientFileSystem;
  terminals?: Terminals;
  /** A session's roots (cwd plus additional directories), pinned when it attached; terminals start only inside them. */
  rootsFor?: (sessionId: string) => readonly PinnedRoot[] | undefined;
  /** `elicitation/create` (forms and URLs); announced only when present. */
  elicit?(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** `elicitation/complete`: a URL elicitation finished. */
  completeElicitation?(params: CompleteElicitationNotification): void;
}

/**
 * The SDK client app with what we serve to the agent, and the capabilities that announce
 * exactly that: absent handlers are neither announced nor served.
 */
export function buildClientApp(
  name: string,
  config: AgentConfig,
  handlers: ClientHandlers,
  router: UpdateRouter,
): { app: ClientApp; capabilities: ClientCapabilities } {
  const app = client({ name });
  // Checked in the wire tap (its envelope) and by `agent/parseUpdate` (the update), not by the SDK's schema.
  app.onNotification(
    CHECKED_SESSION_UPDATE,
    (params) => params as SessionNotification,
    ({ params }) => router.dispatch(params),
  );
  app.onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
    handlers.requestPermission(params, signal),
  );
  // We can run the agent's own program in a VS Code terminal, so agents may offer terminal sign-in.
  // Announce only what renders: notices and config options show in the chat, elicitations
  // as cards; compaction does not, so it is not announced.
  const capabilities: ClientCapabilities = {
    terminal: false,
    auth: { terminal: true },
    session: { notices: {}, configOptions: {} },
  };
  if (handlers.elicit) {
    const elicit = handlers.elicit;
    capabilities.elicitation = { form: {}, url: {} };
    app.onRequest(methods.client.elicitation.create, ({ params, signal }) => elicit(params, signal));
    app.onNotification(methods.client.elicitation.complete, ({ params }) => handlers.completeElicitation?.(params));
  }
  if (handlers.fs) {
    const fs = handlers.fs;
    capabilities.fs = { readTextFile: true, writeTextFile: config.allowFileWrites !== false };
    app.onRequest(methods.client.fs.readTextFile, ({ params, signal }) => fs.readTextFile(params, signal));
    app.onRequest(methods.client.fs.writeTextFile, async ({ params, signal }) => {
      await fs.writeTextFile(params, signal);
      return {};
    });
  }
  if (handlers.terminals && config.allowTerminals !== false) {
    const t = handlers.terminals;
    capabilities.terminal = true;
    app.onRequest(methods.client.terminal.create, ({ params }) => {
      const roots = handlers.rootsFor?.(params.sessionId);
      if (!roots?.length) throw RequestError.invalidParams(undefined, `unknown session ${params.sessionId}`);
      return t.create(params, roots);
    });
    app.onRequest(methods.client.terminal.output, ({ params }) => t.output(params));
    app.onRequest(methods.client.terminal.waitForExit, ({ params }) => t.waitForExit(params));
    app.onRequest(methods.client.terminal.kill, async ({ params }) => {
      await t.kill(params);
      return {};
    });
    app.onRequest(methods.client.terminal.release, async ({ params }) => {
      await t.release(params);
      return {};
    });
  }
  return { app, capabilities };
}
