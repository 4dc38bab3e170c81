import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { PendingOpens } from '../../app/pendingOpens';
import type { ChatTarget, OpenMode } from '../../chat/target';
import type { ChatPanel } from '../chat/chatPanel';
import type { ChatPanels } from '../chat/chatPanels';

/** A message to scroll to once the chat shows it, and the words to highlight in it. */
export interface Reveal {
  index: number;
  words: string[];
}

/** Where a picked session belongs, as Resume Session knows it. */
export interface PickedPlace {
  /** Its folder is one of this window's. */
  here: boolean;
  /** Its agent's list, read to its end, no longer has it (a hit from the library). */
  unlisted: boolean;
  /** The agent's name, for the chat to say which agent no longer lists it. */
  agentName: string;
}

type Chats = Pick<ChatPanels, 'open' | 'openKept'>;
/** Where a session picked for another folder waits for that folder's new window. */
type Pending = Pick<PendingOpens, 'keep'>;

/**
 * Opens a session Resume Session picked, scrolled to `reveal`: in this window; read-only from
 * the library when its agent no longer lists it or its folder is gone (nothing is sent to the
 * agent then); for a folder not open here, as the user chooses.
 */
export async function openPicked(
  chats: Chats,
  target: ChatTarget & { sessionId: string },
  mode: OpenMode,
  place: PickedPlace,
  reveal?: Reveal,
  pending?: Pending,
): Promise<void> {
  const shown = (panel: ChatPanel | undefined) => reveal && panel?.revealEntry(reveal.index, reveal.words);
  if (!(await isFolder(target.cwd))) {
    const panel = await chats.openKept(
      target,
      `This session's folder, ${target.cwd}, no longer exists: this is the copy the session library keeps, read-only.`,
      reveal,
    );
    void vscode.window.showWarningMessage(
      panel
        ? `The folder ${target.cwd} no longer exists: the session is shown as the library keeps it, read-only, and nothing was sent to ${place.agentName}.`
        : `The folder ${target.cwd} no longer exists, and the session library keeps no copy of the session.`,
    );
    return void shown(panel);
  }
  if (place.unlisted) {
    const panel = await chats.openKept(
      target,
      `${place.agentName} no longer lists this session: this is the copy the session library keeps, read-only.`,
      reveal,
    );
    if (panel) return void shown(panel);
  }
  if (!place.here) return openElsewhere(chats, target, mode, reveal, pending);
  shown(await chats.open(target, mode, undefined, reveal));
}

/** Whether `path` is a folder now (a deleted one, or one that cannot be read, is not). */
async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * A session of a folder this window does not have open (found by searching everything): its
 * folder opens in a new window, where the session opens (carried by `pending`), or the session
 * opens here.
 */
export async function openElsewhere(
  chats: Pick<ChatPanels, 'open'>,
  target: ChatTarget & { sessionId: string },
  mode: OpenMode,
  reveal?: Reveal,
  pending?: Pending,
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
    const panel = await chats.open(target, mode, undefined, reveal);
    if (reveal) panel?.revealEntry(reveal.index, reveal.words);
  } else if (choice === newWindow) {
    // Kept before the window opens: its activation looks for it.
    await pending
      ?.keep({
        agentId: target.agentId,
        sessionId: target.sessionId,
        cwd: target.cwd,
        ...(target.title !== undefined ? { title: target.title } : {}),
        ...(reveal ? { index: reveal.index } : {}),
        words: reveal?.words ?? [],
      })
      .catch(() => {});
    await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(target.cwd), { forceNewWindow: true });
  }
}
