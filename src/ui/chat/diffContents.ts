import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';

const SCHEME = 'acp-diff';
const MAX_KEPT = 50;

/**
 * Read-only documents for VS Code's diff editor: a tool call's old and new text, kept in
 * memory (the last 50) under an `acp-diff:` URI.
 */
export class DiffContents extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private seq = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  private put(text: string, name: string, side: string): vscode.Uri {
    const key = `${++this.seq}-${side}`;
    this.texts.set(key, text);
    while (this.texts.size > MAX_KEPT * 2) this.texts.delete(this.texts.keys().next().value!);
    return vscode.Uri.from({ scheme: SCHEME, path: `/${name}`, query: key });
  }

  async open(filePath: string, oldText: string, newText: string): Promise<void> {
    const name = path.basename(filePath) || 'file';
    const left = this.put(oldText, name, 'old');
    const right = this.put(newText, name, 'new');
    await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (proposed change)`, { preview: true });
  }
}
