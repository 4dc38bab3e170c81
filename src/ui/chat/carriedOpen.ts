import * as vscode from 'vscode';
import type { PendingOpens } from '../../app/pendingOpens';
import type { OpenMode } from '../../chat/target';
import type { ChatPanel } from './chatPanel';
import type { ChatPanels } from './chatPanels';

/**
 * Opens the session another window carried here: the user picked it there and chose "Open
 * Folder in New Window", and this is that window. Scrolled to the message found, the words
 * highlighted. Only the window whose folder it is takes it, and only once.
 */
export async function openCarried(
  pending: Pick<PendingOpens, 'take'>,
  chats: Pick<ChatPanels, 'open'>,
  mode: OpenMode,
): Promise<ChatPanel | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) return undefined;
  const open = await pending.take(folders.map((f) => f.uri.fsPath));
  if (!open) return undefined;
  const { agentId, sessionId, cwd, title, index, words } = open;
  const reveal = index !== undefined ? { index, words } : undefined;
  const panel = await chats.open(
    { agentId, sessionId, cwd, ...(title !== undefined ? { title } : {}) },
    mode,
    undefined,
    reveal,
  );
  if (index !== undefined) panel?.revealEntry(index, words);
  return panel;
}
