// The reference agent's ACP methods on the SDK's AgentApp. State that must outlive the process
// lives in the store; what a real agent keeps per open session (mode, model, MCP servers, the
// running turn) lives here. It is built on the SDK's unstable entry, as agents that serve
// session/fork, set_title and archive are: one entry for the whole app, so the stable methods
// are parsed by the same schema as the unstable ones (the migration guide's rule).
import { existsSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import {
  agent,
  type AgentApp,
  type AgentCapabilities,
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
} from '@agentclientprotocol/sdk/unstable';
import { AuthState } from './auth';
import { SessionLister } from './list';
import { addManagement } from './manage';
import type { Capability, ServeOptions } from './options';
import { reply, sleep, TurnCancelled, type TurnContext } from './replies';
import { newSessionId } from './seed';
import type { SessionStore } from './store';
import { crash, type Wire } from './wire';

export const AGENT_VERSION = '0.1.0';

const modes = [
  { id: 'ask', name: 'Ask', description: 'Answer questions without changing files' },
  { id: 'code', name: 'Code', description: 'Edit files and run commands' },
];
const models = [
  { value: 'ref-fast', name: 'Reference Fast', description: 'Quick, scripted answers' },
  { value: 'ref-smart', name: 'Reference Smart', description: 'The same answers, more slowly' },
];

interface LiveSession {
  modeId: string;
  model: string;
  /** A boolean config option: SDK-based agents accept it only as `{ type: "boolean", value }`. */
  thinking: boolean;
  mcpServers: McpServer[];
  additionalDirectories: string[];
  turn?: AbortController;
}

function titleFrom(prompt: ContentBlock[]): string | undefined {
  const text = prompt
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 0 ? text.slice(0, 60) : undefined;
}

/** `--crash-after-replayed`: the first time in this store, the replay ends in a crash. */
const replayMarker = (store: string) => join(store, '.crashed-in-replay');
const crashedInReplay = (store: string) => existsSync(replayMarker(store));
function crashInReplay(store: string, replayed: number): never {
  writeFileSync(replayMarker(store), String(replayed));
  crash(`--crash-after-replayed ${replayed}`);
}

export function buildAgent(store: SessionStore, options: ServeOptions, wire: Wire): AgentApp {
  const live = new Map<string, LiveSession>();
  const lister = new SessionLister(store, options);
  let clientCapabilities: ClientCapabilities | undefined;
  const auth = new AuthState(options, process.env);
  // Some adapters refuse every session method until the client has authenticated.
  const requireAuth = () => auth.require();

  const supports = (capability: Capability) => !options.without.has(capability);
  const refuseUnless = (capability: Capability, method: string) => {
    if (!supports(capability)) throw RequestError.methodNotFound(method);
  };
  const unknownSession = (sessionId: string) =>
    new RequestError(
      options.unknownSessionCode,
      options.unknownSessionCode === -32002 ? 'Resource not found' : 'Internal error',
      {
        sessionId,
        message: `unknown session ${sessionId}`,
      },
    );
  const requireStored = (sessionId: string) => {
    requireAuth();
    const entry = store.get(sessionId);
    if (!entry) throw unknownSession(sessionId);
    return entry;
  };
  const liveSession = (sessionId: string): LiveSession => {
    let session = live.get(sessionId);
    if (!session) {
      const entry = requireStored(sessionId);
      session = {
        modeId: 'code',
        model: models[0].value,
        thinking: false,
        mcpServers: [],
        additionalDirectories: entry.additionalDirectories ?? [],
      };
      live.set(sessionId, session);
    }
    return session;
  };
  const modeState = (s: LiveSession): SessionModeState => ({ currentModeId: s.modeId, availableModes: modes });
  const configOptions = (s: LiveSession): SessionConfigOption[] => [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: s.model, options: models },
    { id: 'thinking', name: 'Think harder', category: 'thought_level', type: 'boolean', currentValue: s.thinking },
  ];
  const availableCommands = (): SessionUpdate => ({
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'plan', description: 'Draft a plan before editing' },
      { name: 'review', description: 'Review the current changes', input: { hint: 'files or a branch' } },
      { name: 'compact', description: 'Summarise the conversation so far' },
    ],
  });
  const notify = (client: AgentContext, sessionId: string, update: SessionUpdate) =>
    client.notify(methods.client.session.update, { sessionId, update });
  // --echo-key: a careless agent writes what it was given to its stderr.
  const echoMcp = (servers: readonly McpServer[] | undefined) => {
    if (!options.echoKey || !servers?.length) return;
    const values = servers.flatMap((s) =>
      ('headers' in s ? s.headers : 'env' in s ? s.env : []).map((p) => `${p.name}=${p.value}`),
    );
    process.stderr.write(`reference agent: MCP servers ${values.join(' ')}\n`);
  };
  const open = (sessionId: string, mcpServers: McpServer[] | undefined, dirs: string[] | undefined) => {
    echoMcp(mcpServers);
    const session = liveSession(sessionId);
    if (mcpServers) session.mcpServers = mcpServers;
    if (dirs) session.additionalDirectories = dirs;
    return session;
  };

  const capabilities = (): AgentCapabilities => ({
    loadSession: supports('load'),
    ...(auth.enabled ? { auth: { logout: {} } } : {}),
    promptCapabilities: { image: false, audio: false, embeddedContext: true },
    mcpCapabilities: { http: options.mcpHttp, sse: options.mcpSse },
    sessionCapabilities: {
      ...(supports('list') ? { list: {} } : {}),
      ...(supports('resume') ? { resume: {} } : {}),
      ...(supports('close') ? { close: {} } : {}),
      ...(supports('delete') ? { delete: {} } : {}),
      ...(supports('additionalDirectories') ? { additionalDirectories: {} } : {}),
      ...(supports('title') ? { title: {} } : {}),
      ...(supports('archive') ? { archive: {} } : {}),
      ...(supports('fork') ? { fork: {} } : {}),
    },
  });
  const closeLive = (sessionId: string) => {
    live.get(sessionId)?.turn?.abort();
    live.delete(sessionId);
  };

  const app = agent({ name: 'acp-reference-agent' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: capabilities(),
        authMethods: auth.methods(clientCapabilities),
        agentInfo: { name: 'acp-reference-agent', title: 'ACP Reference Agent', version: AGENT_VERSION },
      };
    })
    .onRequest(methods.agent.authenticate, ({ params }) => {
      auth.authenticate(params.methodId, clientCapabilities);
      return {};
    })
    .onRequest(methods.agent.logout, () => {
      auth.logout();
      return {};
    })
    .onRequest(methods.agent.session.new, ({ params }) => {
      requireAuth();
      if (!isAbsolute(params.cwd))
        throw RequestError.invalidParams({ cwd: params.cwd }, 'cwd must be an absolute path');
      const sessionId = newSessionId();
      const dirs = params.additionalDirectories ?? [];
      store.add({
        sessionId,
        cwd: params.cwd,
        updatedAt: new Date().toISOString(),
        title: null,
        turns: 0,
        ...(dirs.length ? { additionalDirectories: dirs } : {}),
      });
      echoMcp(params.mcpServers);
      const session: LiveSession = {
        modeId: 'code',
        model: models[0].value,
        thinking: false,
        mcpServers: params.mcpServers,
        additionalDirectories: dirs,
      };
      live.set(sessionId, session);
      // --echo-key-routes: the key as the id of an option the client drops, and names in its log.
      const echoed = options.echoKeyRoutes
        ? [{ id: process.env.ACP_REF_KEY ?? '', name: 'Echo', type: 'unknown' } as unknown as SessionConfigOption]
        : [];
      return { sessionId, modes: modeState(session), configOptions: [...configOptions(session), ...echoed] };
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      refuseUnless('list', methods.agent.session.list);
      auth.require('list');
      return lister.list(params);
    })
    .onRequest(methods.agent.session.load, async ({ params, client, requestId }) => {
      refuseUnless('load', methods.agent.session.load);
      const entry = requireStored(params.sessionId);
      const session = open(params.sessionId, params.mcpServers, params.additionalDirectories);
      if (options.loadDelay > 0) await sleep(options.loadDelay, new AbortController().signal);
      const history = store.readUpdates(params.sessionId);
      const info: SessionUpdate = {
        sessionUpdate: 'session_info_update',
        title: entry.title,
        updatedAt: entry.updatedAt,
      };
      const send = (update: SessionUpdate) => notify(client, params.sessionId, update);
      if (options.lateUpdates) {
        // Some adapters answer the load early and keep streaming: the client must route by
        // session, not by the pending request.
        const half = Math.floor(history.length / 2);
        const sent = history.slice(0, half).map(send);
        wire.afterResponse(requestId, () => {
          const rest = [...history.slice(half).map(send), send(availableCommands()), send(info)];
          void Promise.all(rest).catch(() => undefined);
        });
        await Promise.all(sent);
      } else if (options.crashAfterReplayed !== undefined && !crashedInReplay(options.store)) {
        // One by one, each on stdout before the next: the crash cuts the replay where it says.
        const updates = [availableCommands(), info, ...history];
        for (const [i, update] of updates.entries()) {
          if (i === options.crashAfterReplayed) crashInReplay(options.store, i);
          await send(update);
        }
      } else {
        // Not awaited one by one: the SDK keeps the order and a replay goes out as fast as stdout takes it.
        await Promise.all([send(availableCommands()), send(info), ...history.map(send)]);
      }
      if (options.touchOnLoad) store.touch(params.sessionId, new Date().toISOString());
      return { modes: modeState(session), configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.resume, ({ params }) => {
      refuseUnless('resume', methods.agent.session.resume);
      requireAuth();
      const session = open(params.sessionId, params.mcpServers, params.additionalDirectories);
      return { modes: modeState(session), configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.close, ({ params }) => {
      refuseUnless('close', methods.agent.session.close);
      closeLive(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.delete, ({ params }) => {
      refuseUnless('delete', methods.agent.session.delete);
      requireAuth();
      closeLive(params.sessionId);
      if (!store.delete(params.sessionId)) throw unknownSession(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      const session = liveSession(params.sessionId);
      if (!modes.some((m) => m.id === params.modeId))
        throw RequestError.invalidParams({ modeId: params.modeId }, 'unknown mode');
      session.modeId = params.modeId;
      await notify(client, params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: session.modeId });
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
      const session = liveSession(params.sessionId);
      // The SDK has already refused a boolean sent without `type: "boolean"` (its schema's rule).
      if (params.configId === 'thinking' && 'type' in params && params.type === 'boolean') {
        session.thinking = params.value;
        return { configOptions: configOptions(session) };
      }
      const value = 'value' in params ? params.value : undefined;
      // As the schema says: a boolean value comes tagged `type: "boolean"`, a value id untagged.
      if (
        params.configId === 'thinking' &&
        'type' in params &&
        params.type === 'boolean' &&
        typeof value === 'boolean'
      ) {
        session.thinking = value;
        return { configOptions: configOptions(session) };
      }
      if (params.configId !== 'model' || typeof value !== 'string' || !models.some((m) => m.value === value)) {
        throw RequestError.invalidParams({ configId: params.configId, value }, 'unknown config option or value');
      }
      session.model = value;
      return { configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client, signal }) => {
      const entry = requireStored(params.sessionId);
      const session = liveSession(params.sessionId);
      session.turn?.abort();
      const turn = new AbortController();
      session.turn = turn;
      const onRequestAbort = () => turn.abort();
      signal.addEventListener('abort', onRequestAbort, { once: true });
      const history: SessionUpdate[] = params.prompt.map((content) => ({
        sessionUpdate: 'user_message_chunk',
        content,
      }));
      const ctx: TurnContext = {
        sessionId: params.sessionId,
        cwd: entry.cwd,
        client,
        clientCapabilities,
        signal: turn.signal,
        replyChunks: options.replyChunks,
        send: async (update) => {
          if (turn.signal.aborted) throw new TurnCancelled();
          history.push(update);
          await notify(client, params.sessionId, update);
        },
        modeId: () => session.modeId,
        configOptions: () => configOptions(session),
        availableCommands,
        stopReading: () => wire.stopReading(),
      };
      const promptText = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      let stopReason: 'end_turn' | 'cancelled' = 'end_turn';
      try {
        await reply(ctx, promptText);
      } catch (error) {
        if (!(error instanceof TurnCancelled) && !turn.signal.aborted) throw error;
        stopReason = 'cancelled';
      } finally {
        signal.removeEventListener('abort', onRequestAbort);
        if (session.turn === turn) session.turn = undefined;
      }
      const updatedAt = new Date().toISOString();
      const title = entry.turns === 0 && !entry.title ? titleFrom(params.prompt) : undefined;
      const stored = store.appendTurn(params.sessionId, history, {
        updatedAt,
        ...(title !== undefined ? { title } : {}),
      });
      if (stored) {
        await notify(client, params.sessionId, {
          sessionUpdate: 'session_info_update',
          updatedAt,
          ...(title !== undefined ? { title } : {}),
        });
      }
      return { stopReason };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      live.get(params.sessionId)?.turn?.abort();
    });
  return addManagement(app, {
    store,
    refuseUnless,
    requireStored,
    close: closeLive,
    notify,
    openFork: (sessionId, mcpServers, dirs) => {
      echoMcp(mcpServers);
      const session: LiveSession = {
        modeId: 'code',
        model: models[0].value,
        thinking: false,
        mcpServers: mcpServers ?? [],
        additionalDirectories: dirs,
      };
      live.set(sessionId, session);
      return { modes: modeState(session), configOptions: configOptions(session) };
    },
  });
}
