import type { Commands } from '../commands';
import { noChatOpen } from '../messages';
import type { ChatPanels } from './chatPanels';

/** What acts on the chat in front. */
export function chatCommands(chats: ChatPanels): Commands {
  return {
    'acp.focusChatInput': () => {
      if (!chats.focusInput()) noChatOpen();
    },
    'acp.reloadHistory': async () => {
      const chat = chats.active;
      if (chat) await chat.session.reloadHistory();
    },
  };
}
