import * as vscode from 'vscode';
import type { CheckpointKeeper, MessageRestorePlan, RestoreDone } from '../../app/checkpointKeeper';
import { normalizePath } from '../../platform/pathKey';
import type { ChatSession } from '../../chat/chatSession';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import * as path from 'node:path';

export interface RestoreDeps {
  keeper: CheckpointKeeper;
  /** The open chat of a session. */
  session(agentId: string, sessionId: string): ChatSession | undefined;
  confirm: Confirm;
}

/** How many paths a question lists before "and N more". */
const LISTED = 15;

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED).join('\n');
  return paths.length > LISTED ? `${shown}\nand ${paths.length - LISTED} more` : shown;
}

/** The files of a plan with unsaved changes in an editor. */
function dirtyIn(plan: MessageRestorePlan): string[] {
  const planned = new Set(
    plan.folders.flatMap(({ folder, changes }) => changes.map((c) => normalizePath(path.join(folder, c.path)))),
  );
  return vscode.workspace.textDocuments
    .filter((d) => d.isDirty && d.uri.scheme === 'file' && planned.has(normalizePath(d.uri.fsPath)))
    .map((d) => vscode.workspace.asRelativePath(d.uri));
}

/**
 * "Restore Files to Before This Message" on a user message, and its "Undo Restore": never while
 * a turn runs, always asked first (files with unsaved edits by name), the present state
 * checkpointed before anything is written.
 */
export function restoreCommands(deps: RestoreDeps): Commands {
  const last = new Map<string, RestoreDone>();
  const busy = (session: ChatSession): boolean => {
    if (!session.capabilities().canCancel) return false;
    void vscode.window.showWarningMessage(
      'A turn is running in this chat: restore files once it is over, or stop it first.',
    );
    return true;
  };
  const said = (done: RestoreDone, what: string): string => {
    const n = done.written + done.deleted;
    const failed = done.failed.length ? ` ${done.failed.length} could not be: ${done.failed.join('; ')}.` : '';
    return `${what} ${n} ${n === 1 ? 'file' : 'files'}.${failed}`;
  };
  return {
    'acp.restoreToMessage': async (
      agentId: unknown,
      sessionId: unknown,
      index: unknown,
    ): Promise<RestoreDone | undefined> => {
      if (typeof agentId !== 'string' || typeof sessionId !== 'string' || typeof index !== 'number') return undefined;
      const session = deps.session(agentId, sessionId);
      if (!session || busy(session)) return undefined;
      const plan = await deps.keeper.planMessageRestore(session, index);
      const files = plan.folders.flatMap(({ folder, changes }) =>
        changes.map((c) => vscode.workspace.asRelativePath(path.join(folder, c.path))),
      );
      if (plan.folders.length === 0) {
        void vscode.window.showInformationMessage('No checkpoint was kept from before this message.');
        return undefined;
      }
      if (files.length === 0) {
        void vscode.window.showInformationMessage('The files are as they were before this message.');
        return undefined;
      }
      const dirty = dirtyIn(plan);
      if (
        dirty.length &&
        !(await deps.confirm(
          `${dirty.length === 1 ? 'A file' : `${dirty.length} files`} to restore ${dirty.length === 1 ? 'has' : 'have'} unsaved changes in an editor. Restore it on disk anyway?`,
          'Restore Anyway',
          `${listed(dirty)}\n\nYour unsaved text stays in the editor; saving it would write over the restored file.`,
        ))
      )
        return undefined;
      const ok = await deps.confirm(
        `Restore ${files.length} ${files.length === 1 ? 'file' : 'files'} to before this message?`,
        'Restore',
        `${listed(files)}\n\nWhat the agent remembers of the conversation is not rewound. Undo Restore puts the files back as they are now.`,
      );
      if (!ok || busy(session)) return undefined;
      const done = await deps.keeper.restore(session, plan);
      last.set(`${agentId}\n${sessionId}`, done);
      void vscode.window
        .showInformationMessage(said(done, 'Restored'), 'Undo Restore')
        .then((choice) => (choice ? vscode.commands.executeCommand('acp.undoRestore', agentId, sessionId) : undefined));
      return done;
    },
    'acp.undoRestore': async (agentId: unknown, sessionId: unknown): Promise<RestoreDone | undefined> => {
      if (typeof agentId !== 'string' || typeof sessionId !== 'string') return undefined;
      const key = `${agentId}\n${sessionId}`;
      const done = last.get(key);
      const session = deps.session(agentId, sessionId);
      if (!done || !session || busy(session)) return undefined;
      last.delete(key);
      const undone = await deps.keeper.undoRestore(session, done);
      void vscode.window.showInformationMessage(said(undone, 'Put back'));
      return undone;
    },
  };
}
