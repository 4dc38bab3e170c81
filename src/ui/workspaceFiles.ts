import * as vscode from 'vscode';

/** The text of an open editor for a path, unsaved changes included (it wins over the disk). */
export function openDocumentText(absPath: string): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === absPath);
  return doc?.getText();
}
