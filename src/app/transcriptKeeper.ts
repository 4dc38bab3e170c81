import type { SessionInfo as AgentSessionInfo } from '@agentclientprotocol/sdk';
import type { AgentHost } from '../agent/agentHost';
import type { AgentConnection } from '../agent/connection';
import type { Logger } from '../agent/log';
import { Disposable, type IDisposable } from '../base/lifecycle';
import type { ChatSession } from '../chat/chatSession';
import type { OpenMode } from '../chat/target';
import type { ThreadEntry } from '../protocol/entries';
import { timeAfterClose } from '../library/closeTime';
import { openPlan, sameTime } from '../library/freshness';
import { Recorder } from '../library/recorder';
import type { LibraryService } from '../library/service';
import type { SessionInfo, SessionWrite } from '../library/types';
import { agentListed } from '../sessions/agentListed';
import { MAX_TITLE, sanitizeText } from '../sessions/title';
import { noteStep } from '../base/steps';

/** A chat session being kept: its recorder, once the session attached. */
export interface Recording extends IDisposable {
  /**
   * Resolves once everything recorded so far is in the library, with the agent's time after the
   * attach (and, once the session closed, after the close).
   */
  flush(): Promise<void>;
}

type AttachKind = 'load' | 'resume';

/**
 * Keeps the chats' transcripts in the session library: every session a chat loads, resumes or carries a
 * turn in is recorded (its entries as the chat shows them, and the session's `updatedAt` as the
 * agent reports it after each attach and turn); a chosen session whose kept copy is whole and
 * current is shown from the library at once and resumed instead of replayed.
 */
export class TranscriptKeeper extends Disposable {
  private readonly recorders = new Set<Recorder>();
  /** The chats recorded: while one is busy, the others' writes wait (see {@link Recorder}). */
  private readonly recorded = new Set<ChatSession>();
  /** The agent's time that {@link showKept} compared, per chat: the time before its resume. */
  private readonly compared = new WeakMap<ChatSession, string>();
  /**
   * Per agent process and way of attaching: whether attaching was seen to leave a session's
   * `updatedAt` as it was (true) or move it (false; Claude Code moves it on load).
   */
  private readonly keepsTime = new WeakMap<AgentConnection, Partial<Record<AttachKind, boolean>>>();
  /**
   * Per agent process: whether its close was seen to move a session's time (Claude Code's does);
   * one seen not to is not asked about the time around a close again.
   */
  private readonly closeMoves = new WeakMap<AgentConnection, boolean>();
  /**
   * Per session (agent and id): how many times a chat of this window attached it. A close's
   * time is read for a few seconds after it; once the session is attached again, what moves
   * its time is that attach's to note, not the close's.
   */
  private readonly attaches = new Map<string, number>();

  /**
   * `listedTime`: the session's `updatedAt` in the rows the window has (the Sessions view's
   * lists), when it has a row of it.
   */
  constructor(
    private readonly library: LibraryService,
    private readonly log: Logger,
    private readonly listedTime: (agentId: string, sessionId: string) => string | null | undefined = () => undefined,
  ) {
    super();
  }

  /** Records `session` from its next attach on, until disposed (which writes what is left). */
  record(session: ChatSession): Recording {
    this.recorded.add(session);
    let recorder: Recorder | undefined;
    const gap = { missed: false };
    /**
     * Every secret value the session's agent connections have had, noted as each change
     * arrives: what is masked in a write is what was known when its text came, though the
     * agent may have exited (and its connection gone) before the write goes out.
     */
    const secrets = new Set<string>();
    const noteSecrets = () => {
      for (const v of session.host?.connection?.secretValues ?? []) secrets.add(v);
    };
    /** The agent's time reports the thread had had when the time was last noted. */
    let reports = session.thread.reported.count;
    let noting: Promise<void> = Promise.resolve();
    const note = (fn: (r: Recorder) => Promise<void>) => {
      const r = recorder;
      if (r) noting = noting.then(() => fn(r)).catch((e: unknown) => this.log.warn(String(e)));
    };
    const subscriptions: IDisposable[] = [
      session.thread.onDidChange(noteSecrets),
      session.onDidAttach((how) => {
        noteSecrets();
        const sessionId = session.sessionId;
        if (!sessionId || !this.library.enabled) return;
        const existed = recorder !== undefined;
        // The header's active time: what the library kept before this attach, read before any
        // turn of this window adds to it (the first turn waits for the attach to end).
        if (!existed && how !== 'new')
          void this.library
            .get()
            ?.session({ agentId: session.target.agentId, sessionId })
            .then((kept) => session.setActiveBefore(kept?.stats?.activeMs ?? 0))
            .catch(() => undefined);
        const attachKey = keyOf(session.target.agentId, sessionId);
        this.attaches.set(attachKey, (this.attaches.get(attachKey) ?? 0) + 1);
        if (!recorder) {
          recorder = new Recorder(session.thread, {
            key: { agentId: session.target.agentId, sessionId },
            cwd: session.target.cwd,
            write: (w) => this.write(w, gap),
            secrets: () => {
              noteSecrets();
              return [...secrets];
            },
            busy: () => TranscriptKeeper.busy([...this.recorded]),
          });
          this.recorders.add(recorder);
        }
        // A load or a new session holds the whole history; a resume keeps what the thread had:
        // the whole kept history, or (a resume without one) only what comes after it.
        const complete = session.history !== 'resumed';
        recorder.begin({ fresh: how !== 'resume' || (!existed && !complete), complete, newSession: how === 'new' });
        const reported = session.thread.reported;
        const before =
          how === 'new'
            ? undefined
            : ((reported.count > reports ? reported.updatedAt : undefined) ??
              (how === 'resume' ? this.compared.get(session) : undefined) ??
              this.listedTime(session.target.agentId, sessionId) ??
              undefined);
        reports = reported.count;
        note((r) => this.noteAttach(session, r, how, before));
      }),
      session.onDidEndTurn(() => {
        recorder?.addActive(session.lastTurnMs);
        const reported = session.thread.reported;
        const fresh = reported.count > reports;
        reports = reported.count;
        // The agent said when the turn left the session: nothing to ask.
        if (fresh) recorder?.setInfo({ updatedAt: reported.updatedAt });
        else note(async (r) => void (await this.noteListed(session, r)));
      }),
      // A mode or an option this client set may count as activity to the agent.
      session.onDidSend(() => note(async (r) => void (await this.noteListed(session, r)))),
    ];
    // Outlive the recording (the panel goes first, then the session closes).
    let current: string | undefined;
    let afterClose: Promise<void> = Promise.resolve();
    const willClose = session.onWillClose(async () => {
      if (recorder) current = await this.currentBeforeClose(session, recorder, noting);
    });
    const closed = session.onDidClose(() => {
      willClose.dispose();
      closed.dispose();
      if (current !== undefined) afterClose = this.noteClosed(session, current, gap);
    });
    return {
      flush: async () => {
        await noting;
        await recorder?.flush();
        await afterClose;
      },
      dispose: () => {
        this.recorded.delete(session);
        for (const s of subscriptions) s.dispose();
        if (recorder) this.recorders.delete(recorder);
        recorder?.dispose();
      },
    };
  }

  /**
   * Writes one recording's change. A change that never reached the library (it was turned off,
   * or the write failed) leaves a gap: the next write says so, and the kept copy is not whole
   * until a load starts it over.
   */
  private write(w: SessionWrite, gap: { missed: boolean }): Promise<void> {
    // Kept as the Sessions view shows it: a title of megabytes is a line of 200 characters.
    if (typeof w.info?.title === 'string') w.info.title = sanitizeText(w.info.title.slice(0, 4 * MAX_TITLE));
    const client = this.library.get();
    if (!client) {
      gap.missed = true;
      return Promise.resolve();
    }
    if (gap.missed && !w.reset) w.partial = true;
    gap.missed = false;
    return client.write(w).catch((e: unknown) => {
      gap.missed = true;
      throw e;
    });
  }

  /** Writes what every recording holds now (a briefing is about to be drafted from the library). */
  async flush(): Promise<void> {
    await Promise.all([...this.recorders].map((r) => r.flush().catch(() => undefined)));
  }

  /**
   * Writes what every recording holds now, then closes the library (the window is going): the
   * changes of the last moments, still waiting for their batch, are not lost.
   */
  async close(): Promise<void> {
    const flushed = [...this.recorders].map((r) => r.flush());
    await Promise.all(flushed);
    await this.library.close();
  }

  /**
   * Before a chat attaches a chosen session: when the library keeps it whole and the agent's
   * `updatedAt` has not moved since, the kept transcript is shown now and the session is resumed
   * (no replay): true. Otherwise nothing is shown and the chat attaches as asked.
   */
  async showKept(session: ChatSession, mode: OpenMode): Promise<boolean> {
    const client = this.library.get();
    const sessionId = session.sessionId;
    if (!client || !sessionId || mode === 'load') return false;
    const key = { agentId: session.target.agentId, sessionId };
    // Every way on needs the agent: it starts while the library (itself starting, in a window's
    // first chat) looks for the session. A failed start is the attach's to report.
    const connected = session.host?.connect();
    connected?.catch(() => {});
    try {
      const kept = await client.session(key);
      if (!kept?.complete || kept.entries === 0) return false;
      // Read while the agent is asked whether the session moved on: most kept ones have not.
      noteStep('transcript asked');
      const transcript = client.transcript(key);
      transcript.then(
        () => noteStep('transcript read'),
        () => {},
      );
      session.thread.setStatus({ state: 'loading', received: 0, phase: 'connect' });
      const c = await connected;
      const listed = c?.features.list
        ? await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId)
        : undefined;
      noteStep('agent listed');
      if (listed?.updatedAt) this.compared.set(session, listed.updatedAt);
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
      const entries = await transcript;
      if (!entries?.length || session.thread.entries.length > 0) return false;
      session.showKept(entries);
      noteStep('kept shown', String(entries.length));
      this.log.info(`[${sessionId}] shown from the session library (${entries.length} entries); resuming`);
      return true;
    } catch (e) {
      this.log.warn(`[${sessionId}] the session library could not be used: ${String(e)}`);
      return false;
    }
  }

  /** One entry of the library's copy of a session (undefined when it keeps none there). */
  async keptEntry(key: { agentId: string; sessionId: string }, index: number): Promise<ThreadEntry | undefined> {
    return this.library.get()?.entry(key, index);
  }

  /** The library's copy of a session's transcript, whole or not (undefined when it keeps none). */
  async keptEntries(key: { agentId: string; sessionId: string }): Promise<readonly ThreadEntry[] | undefined> {
    const entries = await this.library.get()?.transcript(key);
    return entries?.length ? entries : undefined;
  }

  /**
   * Records the session's time after an attach. Some agents (Claude Code) move a session's
   * `updatedAt` when it is loaded: what is kept must be what the agent reports after the load,
   * or the next open would never find it unchanged. The time before the attach (`before`: the
   * agent's report in the replay, the time the library compared, the listed row) stands for it
   * once this agent was seen to leave the time alone on such an attach; else the agent is asked.
   */
  private async noteAttach(
    session: ChatSession,
    recorder: Recorder,
    how: 'new' | AttachKind,
    before: string | undefined,
  ): Promise<void> {
    const c = session.host?.connection;
    if (how !== 'new' && before !== undefined && c && this.keepsTime.get(c)?.[how]) {
      recorder.setInfo({ updatedAt: before });
      return;
    }
    const after = await this.noteListed(session, recorder);
    if (how === 'new' || before === undefined || !c || !after?.updatedAt) return;
    this.keepsTime.set(c, { ...this.keepsTime.get(c), [how]: sameTime(before, after.updatedAt) });
  }

  /**
   * Before this client's `session/close`: the agent's time, when the kept copy is whole and
   * current (else undefined: what happened elsewhere is for the next open to load). Not asked
   * of an agent seen to leave the time alone on close, nor of one seen to leave it alone on a
   * load: one whose time moves only with the session's turns, not when its transcript is read
   * whole, is taken not to move it when the client lets go either (Claude Code moves it on both).
   */
  private async currentBeforeClose(
    session: ChatSession,
    recorder: Recorder,
    noting: Promise<void>,
  ): Promise<string | undefined> {
    const c = session.host?.connection;
    const client = this.library.get();
    const sessionId = session.sessionId;
    if (!c?.isAlive || !c.features.list || !client || !sessionId) return undefined;
    if (this.closeMoves.get(c) === false) return undefined;
    try {
      await noting;
      if (this.keepsTime.get(c)?.load) return undefined;
      await recorder.flush();
      const kept = await client.session({ agentId: session.target.agentId, sessionId });
      if (!kept?.complete || !kept.updatedAt) return undefined;
      const listed = await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId);
      return listed?.updatedAt && sameTime(kept.updatedAt, listed.updatedAt) ? listed.updatedAt : undefined;
    } catch {
      return undefined;
    }
  }

  /** After this client's close of a current session: keeps the agent's time once it settled. */
  private async noteClosed(session: ChatSession, before: string, gap: { missed: boolean }): Promise<void> {
    const c = session.host?.connection;
    const sessionId = session.sessionId;
    if (!c || !sessionId) return;
    const key = { agentId: session.target.agentId, sessionId };
    const attachKey = keyOf(key.agentId, sessionId);
    const attaches = this.attaches.get(attachKey);
    try {
      const moved = await timeAfterClose(before, {
        listed: async () => (await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId))?.updatedAt,
        keep: (updatedAt) => this.write({ ...key, cwd: session.target.cwd, info: { updatedAt } }, gap),
        alive: () => c.isAlive && this.library.enabled && this.attaches.get(attachKey) === attaches,
      });
      // Once seen to move, it stays known to: a later close read too soon proves nothing.
      if (moved !== undefined && !this.closeMoves.get(c)) this.closeMoves.set(c, moved);
      if (moved) this.log.info(`[${sessionId}] the agent moved the session's time on close: kept the new time`);
    } catch (e) {
      this.log.warn(`[${sessionId}] could not read the session's time after closing it: ${String(e)}`);
    }
  }

  /** Records what the agent lists of the session now (its first page, else the next few). */
  private async noteListed(session: ChatSession, recorder: Recorder): Promise<AgentSessionInfo | undefined> {
    const host: AgentHost | undefined = session.host;
    const c = host?.connection;
    const sessionId = session.sessionId;
    if (!c?.isAlive || !c.features.list || !sessionId) return undefined;
    try {
      const listed = await agentListed((p) => c.listSessions(p), session.target.cwd, sessionId);
      // A turn that started meanwhile will be noted when it ends.
      if (!listed || session.isPrompting) return undefined;
      const info: SessionInfo = { updatedAt: listed.updatedAt ?? null };
      if (listed.title !== undefined) info.title = listed.title;
      recorder.setInfo(info);
      return listed;
    } catch (e) {
      this.log.warn(`[${sessionId}] could not read the session's time from the agent: ${String(e)}`);
      return undefined;
    }
  }

  /** A chat is busy: a turn or an attach under way (background indexing waits for it). */
  static busy(sessions: readonly ChatSession[]): boolean {
    return sessions.some((s) => s.isPrompting || s.thread.status.state === 'loading');
  }
}

function keyOf(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}
