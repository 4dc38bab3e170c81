import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';

/** The agent a command acts on: the only one, or the user's choice (default first). */
export async function pickAgent(agents: AgentRegistry, placeHolder: string): Promise<AgentHost | undefined> {
  const all = agents.all;
  if (all.length === 0) {
    const choice = await vscode.window.showInformationMessage('ACP: no agent is configured yet.', 'Add Agent');
    if (choice === 'Add Agent') void vscode.commands.executeCommand('acp.addAgent');
    return undefined;
  }
  if (all.length === 1) return all[0];
  const def = agents.default;
  const items = [def!, ...all.filter((h) => h !== def)].map((host) => ({
    label: host.config.name,
    description: host === def ? 'default' : host.state.kind === 'ready' ? 'running' : undefined,
    host,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.host;
}

/** The folder a command acts on: the only one, the active editor's, or the user's choice. */
export async function pickFolder(placeHolder: string): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('ACP: open a folder to see and start its sessions.');
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return vscode.window.showWorkspaceFolderPick({ placeHolder: current ? `${placeHolder} (current: ${current.name})` : placeHolder });
}
