import * as vscode from 'vscode';

// Wiring only: nothing here spawns a process or reads a file. Filled in by src/ui.
export function activate(context: vscode.ExtensionContext): void {
  const started = Date.now();
  const log = vscode.window.createOutputChannel('ACP', { log: true });
  context.subscriptions.push(log);
  const notYet = (what: string) => () =>
    vscode.window.showInformationMessage(`ACP: ${what} is not available in this build yet.`);
  for (const [id, what] of [
    ['acp.resumeSession', 'Resume Session'],
    ['acp.newSession', 'New Session'],
    ['acp.refreshSessions', 'Refresh Sessions'],
    ['acp.restartAgent', 'Restart Agent'],
    ['acp.addAgent', 'Add Agent'],
  ] as const) {
    context.subscriptions.push(vscode.commands.registerCommand(id, notYet(what)));
  }
  context.subscriptions.push(vscode.commands.registerCommand('acp.showLog', () => log.show()));
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('acp.sessions', {
      getTreeItem: (e: vscode.TreeItem) => e,
      getChildren: () => [],
    }),
  );
  log.info(`activated in ${Date.now() - started} ms`);
}

export function deactivate(): void {}
