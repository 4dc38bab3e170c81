import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { answerNoAgent } from '../agents/agentSettings';
import { openAFolder } from '../messages';

/** The agent a command acts on: the only one, or the user's choice (default first). */
export async function pickAgent(agents: AgentRegistry, placeHolder: string): Promise<AgentHost | undefined> {
  const all = agents.all;
  if (all.length === 0) {
    await answerNoAgent();
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

/** The folder last chosen in this window: offered first next time. */
let lastFolder: string | undefined;

/**
 * The folder a command acts on: the only one, or the user's choice among the window's folders,
 * with the one chosen last in this window first and the active editor's folder marked.
 */
export async function pickFolder(placeHolder: string): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length === 0) {
    openAFolder();
    return undefined;
  }
  if (folders.length === 1) return folders[0];
  const active = vscode.window.activeTextEditor?.document.uri;
  const current = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  const ordered = [...folders].sort(
    (a, b) => Number(b.uri.toString() === lastFolder) - Number(a.uri.toString() === lastFolder),
  );
  const items = ordered.map((folder) => ({
    label: folder.name,
    description: [folder.uri.toString() === lastFolder ? 'last used' : '', folder === current ? 'current editor' : '']
      .filter(Boolean)
      .join(' · '),
    detail: folder.uri.fsPath,
    folder,
  }));
  const choice = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true });
  if (choice) lastFolder = choice.folder.uri.toString();
  return choice?.folder;
}
