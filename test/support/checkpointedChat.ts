// Chats with checkpoints, wired as the extension is to wire them: the prompt waits for the
// checkpoints of the session's folder (`beforePrompt`), and a turn's end takes the
// after-checkpoint and diffs it with the turn's own tool calls.
import { AgentRegistry } from '../../src/agent/agentHost';
import { ClientFileSystem } from '../../src/agent/fileSystem';
import { silentLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import { OpenSessions } from '../../src/chat/openSessions';
import { agentTerminals } from '../../src/chat/terminalFeed';
import type { Checkpoints } from '../../src/checkpoints/checkpoints';
import { type TurnChanges, TurnCheckpoints, type TurnStart } from '../../src/checkpoints/turns';
import type { ToolCallEntry } from '../../src/protocol/entries';
import { chatDeps, hostDeps } from './chat';
import { refAgentConfig } from './refAgent';

/** A chat and what its turns changed, in the order they ended. */
export interface CheckpointedChat {
  chat: ChatSession;
  turns: TurnChanges[][];
  /** The turn under way, once its checkpoints are taken. */
  current(): TurnStart | undefined;
  /** Resolves with the changes of the turn that ends next (or has just ended). */
  nextTurn(): Promise<TurnChanges[]>;
}

/** A window: one registry and its open sessions, with the client's fs and terminals. */
export class CheckpointWindow {
  readonly sessions = new OpenSessions();
  readonly registry: AgentRegistry;
  readonly turns: TurnCheckpoints;
  /** Checkpoints that failed (a test expects none). */
  readonly errors: string[] = [];
  private readonly chats: ChatSession[] = [];

  constructor(
    store: string,
    readonly checkpoints: Checkpoints,
    switches: string[] = [],
    options: { waitMs?: number; beforePrompt?: () => Promise<void> } = {},
  ) {
    this.turns = new TurnCheckpoints(checkpoints, {
      waitMs: options.waitMs ?? 60_000,
      onError: (folder, e) => this.errors.push(`checkpoint of ${folder} failed: ${String(e)}`),
    });
    const fs = new ClientFileSystem({ rootsFor: (id) => this.sessions.rootsFor('ref', id), logger: silentLogger });
    this.registry = new AgentRegistry({
      ...hostDeps(),
      handlers: (config) => ({
        ...this.sessions.handlersFor(config.id),
        fs,
        terminals: agentTerminals(config, silentLogger, this.sessions),
      }),
    });
    this.registry.update([refAgentConfig(store, switches)], 'ref');
    this.hold = options.beforePrompt;
  }

  private readonly hold: (() => Promise<void>) | undefined;

  async open(cwd: string): Promise<CheckpointedChat> {
    let current: { start: TurnStart; from: number } | undefined;
    const ended: TurnChanges[][] = [];
    const waiting: ((t: TurnChanges[]) => void)[] = [];
    let chat: ChatSession | undefined = undefined;
    const deps = {
      ...chatDeps(),
      beforePrompt: async (sessionId: string, prompt: string) => {
        const from = chat!.thread.entries.length;
        const start = await this.turns.begin(sessionId, [cwd], prompt);
        current = { start, from };
        await this.hold?.();
      },
    };
    chat = new ChatSession(this.registry, { agentId: 'ref', cwd }, deps);
    const c = chat;
    c.onDidEndTurn(() => {
      const turn = current;
      current = undefined;
      if (!turn) return;
      const tools = c.thread.entries.slice(turn.from).filter((e): e is ToolCallEntry => e.type === 'tool');
      void this.turns.end(turn.start, tools).then((changes) => {
        ended.push(changes);
        waiting.shift()?.(changes);
      });
    });
    this.chats.push(c);
    this.sessions.add(c);
    await c.attach('new');
    return {
      chat: c,
      turns: ended,
      current: () => current?.start,
      nextTurn: () => new Promise((resolve) => waiting.push(resolve)),
    };
  }

  async dispose(): Promise<void> {
    await Promise.all(this.chats.splice(0).map((c) => this.sessions.close(c)));
    await this.registry.stopAll();
    this.registry.dispose();
    this.sessions.dispose();
  }
}
