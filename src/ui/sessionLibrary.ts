import type { AgentHost } from '../agent/agentHost';
import type { Logger } from '../agent/log';
import { Disposable, type IDisposable } from '../base/lifecycle';
import type { ChatSession } from '../chat/chatSession';
import type { OpenMode } from '../chat/target';
import { openPlan } from '../library/freshness';
import type { Library } from '../library/library';
import { Recorder } from '../library/recorder';
import type { LibraryService } from '../library/service';
import type { SessionInfo } from '../library/types';
import { agentListed } from '../sessions/agentListed';

/** A chat session being kept: its recorder, once the session attached. */
export interface Recording extends IDisposable {
  /** Resolves once everything recorded so far is in the library. */
  flush(): Promise<void>;
}

/**
 * The session library as the chats use it: every session a chat loads, resumes or carries a
 * turn in is recorded (its entries as the chat shows them, what the agent lists of it after
 * each attach and turn); a chosen session whose kept copy is whole and current is shown from
 * the library at once and resumed instead of replayed.
 */
export class SessionLibrary extends Disposable {
  constructor(
    private readonly service: LibraryService,
    private readonly log: Logger,
  ) {
    super();
  }

  /** The library now; undefined when it is turned off or could not start. */
  get library(): Library | undefined {
    return this.service.get();
  }

  /** Records `session` from its next attach on, until disposed (which writes what is left). */
  record(session: ChatSession): Recording {
    let recorder: Recorder | undefined;
    const subscriptions: IDisposable[] = [
      session.onDidAttach((how) => {
        const sessionId = session.sessionId;
        if (!sessionId || !this.service.enabled) return;
        const existed = recorder !== undefined;
        recorder ??= new Recorder(session.thread, {
          key: { agentId: session.target.agentId, sessionId },
          cwd: session.target.cwd,
          write: (w) => this.service.get()?.write(w) ?? Promise.resolve(),
          secrets: () => session.host?.connection?.secretValues ?? [],
          log: (m) => this.log.warn(m),
        });
        // A load or a new session holds the whole history; a resume keeps what the thread had:
        // the whole kept history, or (a resume without one) only what comes after it.
        const complete = session.history !== 'resumed';
        recorder.begin({ fresh: how !== 'resume' || (!existed && !complete), complete });
        void this.noteListed(session, recorder);
      }),
      session.onDidEndTurn(() => {
        if (recorder) void this.noteListed(session, recorder);
      }),
    ];
    const flush = () => recorder?.flush() ?? Promise.resolve();
    return {
      flush,
      dispose: () => {
        for (const s of subscriptions) s.dispose();
        recorder?.dispose();
      },
    };
  }

  /**
   * Before a chat attaches a chosen session: when the library keeps it whole and the agent's
   * `updatedAt` has not moved since, the kept transcript is shown now and the session is resumed
   * (no replay): true. Otherwise nothing is shown and the chat attaches as asked.
   */
  async showKept(session: ChatSession, mode: OpenMode): Promise<boolean> {
    const library = this.library;
    const sessionId = session.sessionId;
    if (!library || !sessionId || mode === 'load') return false;
    const key = { agentId: session.target.agentId, sessionId };
    try {
      const kept = await library.session(key);
      if (!kept?.complete || kept.entries === 0) return false;
      session.thread.setStatus({ state: 'loading', received: 0, phase: 'connect' });
      const c = await session.host?.connect();
      const listed = c?.features.list
        ? await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId)
        : undefined;
      const plan = openPlan({
        kept,
        listed: listed?.updatedAt,
        setting: { mode, explicit: mode !== 'auto' },
        canResume: c?.features.resume,
      });
      if (plan.kind !== 'kept') {
        this.log.info(`[${sessionId}] loading from the agent: ${plan.reason}`);
        return false;
      }
      const entries = await library.transcript(key);
      if (!entries?.length || session.thread.entries.length > 0) return false;
      session.showKept(entries);
      this.log.info(`[${sessionId}] shown from the session library (${entries.length} entries); resuming`);
      return true;
    } catch (e) {
      this.log.warn(`[${sessionId}] the session library could not be used: ${String(e)}`);
      return false;
    }
  }

  /**
   * Records what the agent lists of the session now. Some agents (Claude Code) move a session's
   * `updatedAt` when it is loaded: what is kept must be what the agent reports after the load,
   * or the next open would never find it unchanged.
   */
  private async noteListed(session: ChatSession, recorder: Recorder): Promise<void> {
    const host: AgentHost | undefined = session.host;
    const c = host?.connection;
    const sessionId = session.sessionId;
    if (!c?.isAlive || !c.features.list || !sessionId) return;
    try {
      const listed = await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId);
      // A turn that started meanwhile will be noted when it ends.
      if (!listed || session.isPrompting) return;
      const info: SessionInfo = { updatedAt: listed.updatedAt ?? null };
      if (listed.title !== undefined) info.title = listed.title;
      recorder.setInfo(info);
    } catch (e) {
      this.log.warn(`[${sessionId}] could not read the session's time from the agent: ${String(e)}`);
    }
  }

  /** A chat is busy: a turn or an attach under way (background indexing waits for it). */
  static busy(sessions: readonly ChatSession[]): boolean {
    return sessions.some((s) => s.isPrompting || s.thread.status.state === 'loading');
  }
}
