import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointKeeper } from '../../app/checkpointKeeper';
import { changesLabel } from '../../protocol/changes';
import type { Commands } from '../commands';
import { type ChangeResource, openChanges } from './changesEditor';

/** What the chats' checkpoints offer: each turn's changes in the multi-file diff editor. */
export function checkpointCommands(keeper: CheckpointKeeper): Commands {
  return {
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
