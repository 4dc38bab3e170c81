// What the search-everything suite's tests share: a kept session, a prompt, and the chats'
// reveals (a hit opened scrolled to its message).
import type { AcpTestApi } from '../../../../src/extension';
import type { ChatPanel } from '../../../../src/ui/chat/chatPanel';
import { waitFor } from '../../../support/wait';

export async function prompt(chat: ChatPanel, text: string): Promise<void> {
  await waitFor('ready to prompt', () => chat.session.capabilities().canPrompt);
  await chat.session.prompt(text);
}

/** Waits until the library keeps the session whole, with the agent's time as it lists it now. */
export async function keptCurrent(a: AcpTestApi, agentId: string, sessionId: string, cwd: string): Promise<void> {
  const host = a.agents.get(agentId)!;
  await waitFor(
    'the session kept, whole and current',
    async () => {
      const kept = await a.library.get()!.session({ agentId, sessionId });
      const page = await (await host.connect()).listSessions({ cwd });
      const listed = page.sessions.find((s) => s.sessionId === sessionId);
      return kept?.complete && listed && kept.updatedAt === listed.updatedAt;
    },
    20_000,
  );
}

interface Reveal {
  index: number;
  words: string[];
}
let reveals: Reveal[] = [];
let spying = false;

/**
 * From now on, every chat's `revealEntry` (a hit scrolled to, its words highlighted) is noted;
 * the notes start again. The class is the extension's own: reached through a chat it made.
 */
export function spyReveals(chat: ChatPanel): void {
  reveals = [];
  if (spying) return;
  spying = true;
  const proto = Object.getPrototypeOf(chat) as ChatPanel;
  const original = proto.revealEntry;
  proto.revealEntry = function (this: ChatPanel, index: number, words?: readonly string[]) {
    reveals.push({ index, words: [...(words ?? [])] });
    return original.call(this, index, words);
  };
}
spyReveals.calls = (): Reveal[] => reveals;
