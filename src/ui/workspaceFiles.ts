import * as vscode from 'vscode';

/** The text of an open editor for a path, unsaved changes included (it wins over the disk). */
export function openDocumentText(absPath: string): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === absPath);
  return doc?.getText();
}

/**
 * Writes a file for the agent through a `WorkspaceEdit`, so the change shows in open editors
 * and can be undone; the document is saved so the agent reads back what it wrote.
 */
export async function writeThroughWorkspaceEdit(absPath: string, text: string): Promise<void> {
  const uri = vscode.Uri.file(absPath);
  const edit = new vscode.WorkspaceEdit();
  let exists = true;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    exists = false;
  }
  if (!exists) edit.createFile(uri, { ignoreIfExists: true });
  const doc = exists ? await vscode.workspace.openTextDocument(uri) : undefined;
  const range = doc ? new vscode.Range(0, 0, doc.lineCount, 0) : new vscode.Range(0, 0, 0, 0);
  edit.replace(uri, range, text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the edit to ${absPath}`);
  const saved = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (saved?.isDirty) await saved.save();
}
