// The session library on a chat's path in plain Node, as the extension wires it: the service
// with its worker (dist/libraryWorker.js), the chats' recording, and the reference agent.
import { join } from 'node:path';
import type { AgentRegistry } from '../../src/agent/agentHost';
import { MemoryLogger } from '../../src/agent/log';
import { ChatSession } from '../../src/chat/chatSession';
import type { ChatTarget, OpenMode } from '../../src/chat/target';
import { LibraryService } from '../../src/library/service';
import type { KeptSession } from '../../src/library/types';
import { TranscriptKeeper, type Recording } from '../../src/app/transcriptKeeper';
import { chatDeps } from './chat';
import { repoRoot } from './refAgent';
import { waitFor } from './wait';

export const libraryWorker = join(repoRoot, 'dist/libraryWorker.js');

/** A chat whose session the library records, as the extension's chat panels do. */
export interface RecordedChat {
  session: ChatSession;
  recording: Recording;
  /** Stops recording (what is left is written) and closes the session. */
  close(): Promise<void>;
}

export class LibraryWorld {
  readonly service: LibraryService;
  readonly keeper: TranscriptKeeper;
  /** What the service told the user, as the extension would show it. */
  readonly told: string[] = [];
  readonly lines: string[] = [];

  constructor(
    readonly registry: AgentRegistry,
    readonly dir: string,
    maxBytes = 256 * 1024 * 1024,
  ) {
    this.service = new LibraryService({
      workerPath: libraryWorker,
      dir,
      log: (m) => this.lines.push(m),
      failed: (m) => this.told.push(m),
      writeFailed: (m) => this.told.push(m),
    });
    void this.service.configure({ enabled: true, maxBytes });
    this.keeper = new TranscriptKeeper(this.service, new MemoryLogger());
  }

  /** Opens a chat as the chat panels do: from the library when it keeps the session whole and current. */
  async open(target: ChatTarget, mode: OpenMode | 'new'): Promise<RecordedChat & { fromLibrary: boolean }> {
    const session = new ChatSession(this.registry, target, chatDeps());
    const recording = this.keeper.record(session);
    const fromLibrary = mode !== 'new' && (await this.keeper.showKept(session, mode));
    await session.attach(fromLibrary ? 'resume' : mode);
    return {
      session,
      recording,
      fromLibrary,
      close: async () => {
        recording.dispose();
        await session.close();
      },
    };
  }

  kept(agentId: string, sessionId: string): Promise<KeptSession | undefined> {
    return this.service.get()!.session({ agentId, sessionId });
  }

  /** Waits until the library keeps the session whole, with the agent's time. */
  keptWhole(agentId: string, sessionId: string): Promise<KeptSession> {
    return waitFor('the session kept whole, with its time', async () => {
      const k = await this.kept(agentId, sessionId);
      return k?.complete && k.updatedAt ? k : undefined;
    });
  }
}
