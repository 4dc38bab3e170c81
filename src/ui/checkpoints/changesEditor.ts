import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import { fileMatchesBlob } from '../../checkpoints/blobs';
import type { Checkpoints } from '../../checkpoints/checkpoints';
import type { FileChange } from '../../checkpoints/treeDiff';

/** Files as a checkpoint holds them, read-only: `acp-checkpoint:` + the file's own path. */
export const CHECKPOINT_SCHEME = 'acp-checkpoint';

/** One row of VS Code's multi-file diff editor: the file, its old side, its new side. */
export type ChangeResource = [file: vscode.Uri, before: vscode.Uri | undefined, after: vscode.Uri | undefined];

/**
 * A file's bytes as a checkpoint keeps them, by blob id. The URI's path is the file's own (the
 * multi-file diff editor takes differing paths for a rename); the query names the folder and
 * the blob.
 */
export function checkpointUri(folder: string, rel: string, blob: string): vscode.Uri {
  return vscode.Uri.file(path.join(folder, rel)).with({
    scheme: CHECKPOINT_SCHEME,
    query: new URLSearchParams({ folder, blob }).toString(),
  });
}

/** Serves {@link checkpointUri}s: text as UTF-8, a binary file as one line saying so. */
export class CheckpointContents extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(private readonly checkpoints: Checkpoints) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const folder = q.get('folder');
    const blob = q.get('blob');
    if (!folder || !blob) return '';
    const bytes = await this.checkpoints.read(folder, blob);
    if (!bytes) return '';
    if (bytes.includes(0)) return `(a binary file of ${bytes.length} bytes)`;
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * The multi-file diff editor's rows for `changes` in `folder`: the old side from the checkpoint
 * (none for an added file); the new side the file on disk while it still holds what the
 * checkpoint has (so it can be edited there), else the checkpoint's (none for a deleted file).
 */
export async function changeResources(folder: string, changes: readonly FileChange[]): Promise<ChangeResource[]> {
  return Promise.all(
    changes.map(async (c): Promise<ChangeResource> => {
      const file = vscode.Uri.file(path.join(folder, c.path));
      const before = c.before ? checkpointUri(folder, c.path, c.before.blob) : undefined;
      let after = c.after ? checkpointUri(folder, c.path, c.after.blob) : undefined;
      if (c.after && (await fileMatchesBlob(file.fsPath, c.after.blob))) after = file;
      return [file, before, after];
    }),
  );
}

/** Opens VS Code's multi-file diff editor (`vscode.changes`) on `changes`; resolves with its rows. */
export async function openChanges(
  title: string,
  folder: string,
  changes: readonly FileChange[],
): Promise<ChangeResource[]> {
  const resources = await changeResources(folder, changes);
  await vscode.commands.executeCommand('vscode.changes', title, resources);
  return resources;
}
