/**
 * The one error of the worktrees room: what went wrong, said in a sentence a user can read, and
 * that nothing was changed. The UI's message mapper shows it as it is.
 */
export type WorktreeProblem =
  | 'gitMissing'
  | 'gitTooOld'
  | 'notRepo'
  | 'bare'
  | 'detached'
  | 'invalidBranch'
  | 'branchExists'
  | 'folderExists'
  | 'badBase'
  | 'baseNotCheckedOut'
  | 'baseDirty'
  | 'worktreeDirty'
  | 'locked'
  | 'untrusted'
  | 'overwritesUntracked'
  | 'failed';

export class WorktreeError extends Error {
  constructor(
    readonly problem: WorktreeProblem,
    message: string,
    /** git's own words, for the log. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'WorktreeError';
  }
}
