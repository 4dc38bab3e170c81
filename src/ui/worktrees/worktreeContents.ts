import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import type { FileStatus, Worktrees } from '../../worktrees/worktrees';
import type { ChangeResource } from '../checkpoints/changesEditor';

/** Files as a commit of the user's repository holds them, read-only: `acp-worktree:` + the file's path. */
export const WORKTREE_SCHEME = 'acp-worktree';

function commitUri(cwd: string, rel: string, rev: string): vscode.Uri {
  return vscode.Uri.file(path.join(cwd, rel)).with({
    scheme: WORKTREE_SCHEME,
    query: new URLSearchParams({ cwd, rev, rel }).toString(),
  });
}

/** Serves the old side of a worktree's review: the file's blob at the merge base (only an object id is taken). */
export class WorktreeContents extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(private readonly worktrees: Worktrees) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(WORKTREE_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const cwd = q.get('cwd');
    const rev = q.get('rev');
    const rel = q.get('rel');
    if (!cwd || !rev || !rel) return '';
    return (await this.worktrees.show(cwd, rev, rel)) ?? '';
  }
}

/**
 * The multi-file diff editor's rows for a worktree's review, as the checkpoints' review has
 * them: the old side at the merge base (none for an added file), the new side the file on disk
 * in the worktree, editable there (none for a deleted one).
 */
export function reviewResources(worktree: string, mergeBase: string, files: readonly FileStatus[]): ChangeResource[] {
  return files.map((f): ChangeResource => {
    const file = vscode.Uri.file(path.join(worktree, f.path));
    const before = f.status === 'A' ? undefined : commitUri(worktree, f.from ?? f.path, mergeBase);
    return [file, before, f.status === 'D' ? undefined : file];
  });
}
