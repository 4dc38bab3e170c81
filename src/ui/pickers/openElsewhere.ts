import * as vscode from 'vscode';
import type { ChatTarget, OpenMode } from '../../chat/target';
import type { ChatPanels } from '../chat/chatPanels';

/**
 * A session of a folder this window does not have open (found by searching everything): its
 * folder opens in a new window, or the session opens here.
 */
export async function openElsewhere(
  chats: Pick<ChatPanels, 'open'>,
  target: ChatTarget,
  mode: OpenMode,
  reveal?: { index: number; words: string[] },
): Promise<void> {
  const newWindow = 'Open Folder in New Window';
  const here = 'Open Here';
  const choice = await vscode.window.showInformationMessage(
    `The session belongs to ${target.cwd}, which is not a folder of this window.`,
    { modal: true },
    newWindow,
    here,
  );
  if (choice === here) {
    const panel = await chats.open(target, mode);
    if (reveal) panel?.revealEntry(reveal.index, reveal.words);
  } else if (choice === newWindow)
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(target.cwd), { forceNewWindow: true });
}
