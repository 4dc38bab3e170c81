import * as vscode from 'vscode';
import { showArchived } from './archivedPicker';
import { archive, fork, rename, resetName, type ManageDeps } from './manageActions';
import { showError } from '../messages';

/**
 * Rename, Reset Name, Archive, Unarchive, Show Archived Sessions, Fork, and showing or hiding
 * the rows `acp.sessions.hide` leaves out. Each acts on the rows it was run on, else on the
 * focused chat's session, else asks which.
 */
export function registerManageCommands(deps: ManageDeps): vscode.Disposable[] {
  const run = (id: string, fn: (...args: unknown[]) => Promise<unknown> | unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await fn(...args);
      } catch (e) {
        void showError('ACP', e);
      }
    });
  return [
    run('acp.renameSession', (node) => rename(deps, node)),
    run('acp.resetSessionName', (node) => resetName(deps, node)),
    run('acp.archiveSession', (node, selected) => archive(deps, node, selected)),
    run('acp.unarchiveSession', () => showArchived(deps)),
    run('acp.showArchivedSessions', () => showArchived(deps)),
    run('acp.forkSession', (node) => fork(deps, node)),
    run('acp.showHiddenSessions', () => deps.decor.setShowHidden(true)),
    run('acp.hideHiddenSessions', () => deps.decor.setShowHidden(false)),
  ];
}
