import type { SessionInfo } from '@agentclientprotocol/sdk';
import { Emitter } from '../base/event';
import { Disposable, DisposableMap, MutableDisposable, type IDisposable } from '../base/lifecycle';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import type { AgentConnection } from '../agent/connection';
import type { Logger } from '../agent/log';
import { parseSessionUpdate } from '../agent/parseUpdate';
import type { SessionCache } from './cache';
import type { SessionRow } from './rows';
import { SessionList, type SessionListChange } from './sessionList';

/**
 * Every (agent, folder) session list of the window, made on first use and kept in step with
 * the agents: `session_info_update`s change rows in place, a restarted agent reloads its lists,
 * a removed agent drops them.
 */
export class SessionLists extends Disposable {
  private readonly lists = this.register(
    new DisposableMap<string, { list: SessionList; host: AgentHost; dispose(): void }>(),
  );
  private readonly watchers = this.register(new DisposableMap<string, MutableDisposable<IDisposable>>());
  private readonly emitter = this.register(new Emitter<{ list: SessionList; change: SessionListChange }>());
  /** Fires with the list that changed and what changed in it. */
  readonly onDidChangeList = this.emitter.event;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly cache: SessionCache,
    private readonly logger: Logger,
  ) {
    super();
    this.register(agents.onDidChangeAgents(() => this.dropStale()));
    this.register(agents.onDidChangeState((host) => this.onState(host)));
  }

  private key(agentId: string, folder: string): string {
    return `${agentId}\u0000${folder}`;
  }

  /** The list for an agent and folder (not fetched until someone asks it to load). */
  get(host: AgentHost, folder: string): SessionList {
    const key = this.key(host.config.id, folder);
    let list = this.lists.get(key)?.list;
    if (!list) {
      list = new SessionList({
        agentId: host.config.id,
        folder,
        logger: this.logger,
        cache: this.cache,
        list: (params, signal) => host.listSessions(params, signal),
      });
      const created = list;
      list.onDidChange((change) => this.emitter.fire({ list: created, change }));
      this.lists.set(key, { list, host, dispose: () => created.dispose() });
      this.watch(host);
    }
    return list;
  }

  /** Lists already made (for refresh and for routing info updates). */
  listsOf(agentId: string): SessionList[] {
    return [...this.lists.values()].filter((e) => e.list.agentId === agentId).map((e) => e.list);
  }

  all(): SessionList[] {
    return [...this.lists.values()].map((e) => e.list);
  }

  /** A session created in this window goes on top of its folder's list at once. */
  addCreated(agentId: string, session: SessionInfo): void {
    for (const list of this.listsOf(agentId)) list.addCreated(session);
  }

  removeSession(agentId: string, sessionId: string): void {
    for (const list of this.listsOf(agentId)) list.remove(sessionId);
  }

  /** Routes `session_info_update` from the agent's connection to the rows, without a refetch. */
  private watch(host: AgentHost): void {
    const id = host.config.id;
    if (!this.watchers.has(id)) this.watchers.set(id, new MutableDisposable());
    const slot = this.watchers.get(id)!;
    const c = host.connection;
    if (!c) return;
    slot.value = c.router.onAnyUpdate((n) => {
      if (n.update.sessionUpdate !== 'session_info_update') return;
      // Unchecked until here: the chat's thread checks the updates it reduces, this only these.
      const update = parseSessionUpdate(n.update);
      if (typeof update === 'string') {
        // A flood of bad updates must not bury the log.
        if (this.skippedUpdates++ < 20) this.logger.warn(`${id}: skipped a session update: ${update}`);
        return;
      }
      if (update.sessionUpdate !== 'session_info_update') return;
      for (const list of this.listsOf(id)) list.applyInfoUpdate(n.sessionId, update);
    });
  }

  private skippedUpdates = 0;

  /** The connection each agent's lists were last loaded from, to notice a new process. */
  private readonly connections = new Map<string, AgentConnection>();

  private onState(host: AgentHost): void {
    const id = host.config.id;
    const c = host.connection;
    // Ready again on the same connection (a sign-in change) is no new process.
    if (!c || this.connections.get(id) === c) return;
    this.connections.set(id, c);
    this.watch(host);
    // A new process (an automatic or a user's restart): the old one's cursors and errors mean
    // nothing now. A list whose first page is waiting for this start gets it anyway.
    for (const list of this.listsOf(id))
      if (list.state !== 'loading' && (list.loaded || list.state === 'error')) void list.reload();
  }

  /** A removed agent, or one replaced by changed settings, gets its lists dropped. */
  private dropStale(): void {
    for (const key of [...this.lists.keys()]) {
      const { list, host } = this.lists.get(key)!;
      if (this.agents.get(list.agentId) !== host) this.lists.deleteAndDispose(key);
    }
  }
}

/**
 * The listed row of a session, paging on up to `maxPages` pages while it is not found; undefined
 * when the agent does not list it that far (or listing failed).
 */
export async function findListed(
  list: SessionList,
  sessionId: string,
  maxPages: number,
): Promise<SessionRow | undefined> {
  await list.ensureLoaded();
  for (let i = 0; !list.get(sessionId) && list.nextCursor !== undefined && list.state !== 'error' && i < maxPages; i++)
    await list.loadMore();
  return list.get(sessionId);
}
