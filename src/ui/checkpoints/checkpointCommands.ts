import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointKeeper } from '../../app/checkpointKeeper';
import { changesLabel } from '../../protocol/changes';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import type { SessionRow } from '../../sessions/rows';
import { type ChangeResource, changeResources, openChanges } from './changesEditor';

/** A session the Sessions view's row or the chat in front names. */
export interface SessionRef {
  agentId: string;
  sessionId: string;
  folders: string[];
  label: string;
}

/** The folders a listed session works in: its cwd and the directories it reported. */
export function sessionFolders(row: Pick<SessionRow, 'cwd' | 'additionalDirectories'>): string[] {
  return [row.cwd, ...(row.additionalDirectories ?? [])];
}

/** The tooltip's line on what a session's recorded turns changed, or undefined when none is kept. */
export async function changesNote(keeper: CheckpointKeeper, row: SessionRow): Promise<string | undefined> {
  const sum = await keeper.sessionSummary(row.sessionId, sessionFolders(row));
  if (!sum) return undefined;
  return `Changed ${sum.files} ${sum.files === 1 ? 'file' : 'files'} +${sum.added} −${sum.deleted} in ${sum.turns} ${sum.turns === 1 ? 'turn' : 'turns'} (checkpoints)`;
}

/** What the chats' checkpoints offer: each turn's and each session's changes in the multi-file diff editor. */
export function checkpointCommands(
  keeper: CheckpointKeeper,
  sessionOf: (node: unknown) => SessionRef | undefined,
  confirm: Confirm,
): Commands {
  return {
    /** "ACP: Clear Checkpoints": every folder's, after asking. */
    'acp.clearCheckpoints': async (): Promise<boolean> => {
      const ok = await confirm(
        'Delete all checkpoints?',
        'Delete',
        'Restore Files to Before This Message, Undo Restore and Review Changes will have nothing to go back to for what was changed until now. Your files are not touched. New checkpoints are taken before the next prompts.',
      );
      if (!ok) return false;
      await keeper.clear();
      void vscode.window.showInformationMessage('Checkpoints deleted.');
      return true;
    },
    /**
     * "Review Changes" on a Sessions row (or the chat in front): the session's net changes, from
     * its first checkpoint in each folder to the files now.
     */
    'acp.reviewSessionChanges': async (node?: unknown): Promise<ChangeResource[] | undefined> => {
      const ref = sessionOf(node);
      if (!ref) {
        void vscode.window.showInformationMessage(
          'Open a session, or choose one in the Sessions view, to review its changes.',
        );
        return undefined;
      }
      const per = await keeper.sessionChanges(ref.sessionId, ref.folders);
      if (per.length === 0) {
        void vscode.window.showInformationMessage(
          `No changes are kept for "${ref.label}": no checkpoint of it is kept, or its files are as they were before its first prompt.`,
        );
        return undefined;
      }
      const resources = (await Promise.all(per.map(({ folder, changes }) => changeResources(folder, changes)))).flat();
      const all = per.flatMap((p) => p.changes);
      const added = all.reduce((n, c) => n + (c.added ?? 0), 0);
      const deleted = all.reduce((n, c) => n + (c.deleted ?? 0), 0);
      await vscode.commands.executeCommand(
        'vscode.changes',
        `${ref.label}: ${changesLabel({ files: all.length, added, deleted })}`,
        resources,
      );
      return resources;
    },
    /** A changes row of a chat: what turn `turn` changed in `folder`, whoever wrote it. */
    'acp.openTurnChanges': async (folder: unknown, turn: unknown): Promise<ChangeResource[] | undefined> => {
      if (typeof folder !== 'string' || typeof turn !== 'string') return undefined;
      const record = (await keeper.checkpoints.history(folder)).find((r) => r.kind === 'turn' && r.turn === turn);
      if (record?.kind !== 'turn') {
        void vscode.window.showWarningMessage(
          "This turn's checkpoints are no longer kept (they were pruned or cleared).",
        );
        return undefined;
      }
      const changes = await keeper.checkpoints.diff(folder, record.before, record.after);
      const added = changes.reduce((n, c) => n + (c.added ?? 0), 0);
      const deleted = changes.reduce((n, c) => n + (c.deleted ?? 0), 0);
      const title = `${path.basename(folder)}: ${changesLabel({ files: changes.length, added, deleted })} in a turn`;
      return openChanges(title, folder, changes);
    },
  };
}
