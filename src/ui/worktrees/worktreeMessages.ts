import * as vscode from 'vscode';
import type { Created, MergeResult } from '../../worktrees/worktrees';

/** Says what a new worktree has and lacks: copied files, and uncommitted changes it does not carry. */
export function worktreeCreated(created: Created): void {
  const copied = created.copied.length ? ` Copied ${created.copied.join(', ')}.` : '';
  if (created.notCarried.length === 0) {
    if (copied) void vscode.window.showInformationMessage(`Worktree ${created.branch} created.${copied}`);
    return;
  }
  const n = created.notCarried.length;
  void vscode.window.showWarningMessage(
    `Worktree ${created.branch} starts from the last commit of ${created.base}: ${n} uncommitted change${n === 1 ? '' : 's'} of the folder (${created.notCarried
      .slice(0, 3)
      .map((f) => f.path)
      .join(', ')}${n > 3 ? ', …' : ''}) stay where they are and are not in it.${copied}`,
  );
}

/** Says how a merge ended; conflicts open in the editor, where VS Code offers its merge editor. */
export async function mergeOutcome(result: MergeResult, branch: string, base: string): Promise<void> {
  if (result.kind !== 'conflicts') {
    void vscode.window.showInformationMessage(
      result.kind === 'merged'
        ? `Merged ${branch} into ${base} in ${result.into}.`
        : `The changes of ${branch} are staged on ${base} in ${result.into}: commit them in Source Control.`,
    );
    return;
  }
  const n = result.conflicts.length;
  void vscode.window.showWarningMessage(
    `Merging ${branch} into ${base} stopped at ${n} conflicting file${n === 1 ? '' : 's'}: resolve ${n === 1 ? 'it' : 'them'} (Resolve in Merge Editor), then commit. Nothing else was committed.`,
  );
  const first = result.conflicts[0];
  if (!first) return;
  const uri = vscode.Uri.file(first);
  await vscode.commands
    .executeCommand('git.openMergeEditor', uri)
    .then(undefined, () => vscode.commands.executeCommand('vscode.open', uri));
}
