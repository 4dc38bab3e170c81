import type { AgentRegistry } from '../../agent/agentHost';
import type { ChangedFiles } from '../../app/contentSearch';
import type { PendingOpens } from '../../app/pendingOpens';
import type { SessionNoteSources } from '../../app/sessionNotes';
import type { SettingsService } from '../settings';
import type { Library } from '../../library/library';
import type { SessionLists } from '../../sessions/sessionLists';
import type { ChatPanels } from '../chat/chatPanels';
import type { SessionDecor } from '../sessionDecor';
import type { WorktreeRow } from '../../app/worktreeRows';

/** What Resume Session (and Continue Last Session) read: the agents, lists, chats and kept sessions. */
export interface ResumeDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  settings: SettingsService;
  /**
   * The session library, whose kept sessions are searched by content (absent or off: titles only).
   * `get()` starts it (half a second of CPU): the picker does so once the first rows are shown.
   */
  library?: { readonly enabled: boolean; get(): Library | undefined };
  decor: SessionDecor;
  /** The folders' worktrees as the Sessions view last read them: their sessions are listed too. */
  worktrees?: { rows(folder: string): readonly WorktreeRow[] };
  /** The checkpoints' journals, for `file:`: sessions whose turns changed a file. */
  changes?: { sessionsChanging: ChangedFiles } & SessionNoteSources['changes'];
  /** Where a session of a folder not open here waits for the new window that opens it. */
  pending?: Pick<PendingOpens, 'keep'>;
}
