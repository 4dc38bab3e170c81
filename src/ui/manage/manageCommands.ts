import { showArchived } from './archivedPicker';
import { archive, fork, rename, resetName, type ManageDeps } from './manageActions';
import type { Commands } from '../commands';

/**
 * Rename, Reset Name, Archive, Unarchive, Show Archived Sessions, Fork, and showing or hiding
 * the rows `acp.sessions.hide` leaves out. Each acts on the rows it was run on, else on the
 * focused chat's session, else asks which.
 */
export function manageCommands(deps: ManageDeps): Commands {
  return {
    'acp.renameSession': (node) => rename(deps, node),
    'acp.resetSessionName': (node) => resetName(deps, node),
    'acp.archiveSession': (node, selected) => archive(deps, node, selected),
    'acp.unarchiveSession': () => showArchived(deps),
    'acp.showArchivedSessions': () => showArchived(deps),
    'acp.forkSession': (node) => fork(deps, node),
    'acp.showHiddenSessions': () => deps.decor.setShowHidden(true),
    'acp.hideHiddenSessions': () => deps.decor.setShowHidden(false),
  };
}
