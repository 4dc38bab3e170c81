/**
 * The errors of the checkpoints room. Each says what happened in one sentence a user can read,
 * and that nothing in the folder was lost; the UI's message mapper shows them as they are.
 */

/** Why checkpoints cannot run on this machine: said once, and everything else works. */
export type GitProblem = 'missing' | 'tooOld' | 'broken';

/** Git is missing, too old or does not run: no checkpoint can be taken or read. */
export class GitUnavailable extends Error {
  constructor(
    readonly problem: GitProblem,
    message: string,
  ) {
    super(message);
    this.name = 'GitUnavailable';
  }
}

/** The disk that holds the checkpoints is full (or the storage refuses writes). */
export class StorageFull extends Error {
  constructor(readonly storage: string) {
    super(
      `Checkpoints could not be saved: the disk that holds them (${storage}) is full. Nothing in the folder was changed; free some space or clear old checkpoints.`,
    );
    this.name = 'StorageFull';
  }
}

/** The folder to checkpoint is missing or not a folder. */
export class FolderMissing extends Error {
  constructor(readonly folder: string) {
    super(`Checkpoints need the folder ${folder}, which does not exist or is not a folder.`);
    this.name = 'FolderMissing';
  }
}

/** A checkpoint id that this folder's store does not hold (pruned, cleared, or never taken here). */
export class UnknownCheckpoint extends Error {
  constructor(readonly id: string) {
    super(`The checkpoint ${id.slice(0, 12)} is no longer kept (it was pruned or cleared).`);
    this.name = 'UnknownCheckpoint';
  }
}

/** A git command of the checkpoint store failed in a way none of the errors above names. */
export class CheckpointFailed extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'CheckpointFailed';
  }
}
