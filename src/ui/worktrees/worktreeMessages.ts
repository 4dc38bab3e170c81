import * as vscode from 'vscode';
import { UNTRUSTED } from '../../worktrees/git';
import type { Created, FileStatus, Losses, MergeResult, WorktreeInfo } from '../../worktrees/worktrees';

/**
 * Restricted Mode: a worktree command runs no git (a repository's config names programs git
 * runs: fsmonitor, filters, hooks), and says to trust the folder first. True when trusted.
 */
export function trustedForWorktrees(): boolean {
  if (vscode.workspace.isTrusted) return true;
  const manage = 'Manage Workspace Trust';
  void vscode.window.showWarningMessage(UNTRUSTED, manage).then((choice) => {
    if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}

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

/** Says which of the folder's changes a fork's worktree did not get, and why (a link on the way…). */
export function carriedSkipped(created: Created): void {
  const skipped = created.carried?.skipped ?? [];
  if (skipped.length === 0) return;
  const n = skipped.length;
  const listed = skipped
    .slice(0, 5)
    .map((s) => `${s.path} (${s.reason})`)
    .join(', ');
  void vscode.window.showWarningMessage(
    `${n} uncommitted change${n === 1 ? ' was' : 's were'} not copied into the worktree ${created.branch}: ${listed}${n > 5 ? ', …' : ''}. The folder keeps ${n === 1 ? 'it' : 'them'}.`,
  );
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The confirmation's detail for Discard Worktree: everything that is deleted and kept nowhere
 * else (uncommitted files, commits, ignored files such as `.env`), counted, then named.
 */
export function discardDetail(info: WorktreeInfo, seen: Losses): string {
  const commits = [
    ...seen.unmerged.map((c) => (info.base ? `commit not in ${info.base}: ${c}` : `commit in no other branch: ${c}`)),
    ...seen.detached.map((c) => `commit on its detached HEAD, in no branch: ${c}`),
  ];
  const lost = [
    ...seen.uncommitted.map((f) => `uncommitted: ${f.path}`),
    ...commits,
    ...seen.ignored.map((p) => `ignored by git: ${p}`),
  ];
  const counts = [
    seen.uncommitted.length ? count(seen.uncommitted.length, 'uncommitted file') : '',
    commits.length ? count(commits.length, 'commit') : '',
    seen.ignored.length ? `${count(seen.ignored.length, 'ignored file or folder', 'ignored files or folders')}` : '',
  ].filter(Boolean);
  return [
    seen.missing ? 'Its folder is already gone.' : `Removes ${info.path}, with everything in it.`,
    info.branch ? `Deletes the branch ${info.branch}.` : '',
    lost.length
      ? `This is lost (${counts.join(', ')}):\n${lost.slice(0, 30).join('\n')}${lost.length > 30 ? `\n…and ${lost.length - 30} more` : ''}`
      : 'Nothing else is lost: no uncommitted or ignored files, and no commit that only this worktree holds.',
  ]
    .filter(Boolean)
    .join('\n');
}

/** An agent that does not advertise `session/fork` is asked for none. */
export function noFork(agentName: string): void {
  void vscode.window.showWarningMessage(
    `${agentName} cannot fork sessions (it does not advertise session/fork): a fork into a worktree needs it.`,
  );
}

/** The confirmation's detail for Fork into Worktree: what the worktree starts from, and what is copied. */
export function forkCarried(head: string, pending: readonly FileStatus[]): string {
  const start = `A new worktree from the last commit of ${head}; the fork works there, this session stays here.`;
  if (pending.length === 0) return `${start}\nThe folder has no uncommitted changes.`;
  const n = pending.length;
  const listed = pending
    .slice(0, 15)
    .map((f) => `${f.status} ${f.path}`)
    .join('\n');
  return `${start}\n${n} uncommitted change${n === 1 ? ' is' : 's are'} copied into it (changed and untracked files; ignored files are not). The folder keeps ${n === 1 ? 'it' : 'them'} too:\n${listed}${n > 15 ? `\n…and ${n - 15} more` : ''}`;
}

/** The confirmation's detail for Fork From Here: what the files are, and what the agent remembers. */
export const forkFromHereDetail =
  'A new worktree from the last commit, with the files as they were before this message (from its checkpoint; files checkpoints never keep, such as ignored ones, are as the commit has them). The forked conversation still remembers the later turns: session/fork has no message point, so tell the agent to set them aside if it should.';
