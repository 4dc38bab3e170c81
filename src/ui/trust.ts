import * as vscode from 'vscode';
import type { AgentConfig } from '../agent/types';

const allowedOnce = new Set<string>();

/**
 * In an untrusted workspace no agent process starts without the user's consent: trusting the
 * workspace, or allowing this agent once for this window.
 */
export async function mayStartAgent(config: AgentConfig): Promise<boolean> {
  if (vscode.workspace.isTrusted || allowedOnce.has(config.id)) return true;
  const choice = await vscode.window.showWarningMessage(
    `This workspace is in Restricted Mode. Start the agent "${config.name}" (${config.command}) anyway? It can read and change files.`,
    { modal: true },
    'Allow Once',
    'Manage Workspace Trust',
  );
  if (choice === 'Allow Once') {
    allowedOnce.add(config.id);
    return true;
  }
  if (choice === 'Manage Workspace Trust') void vscode.commands.executeCommand('workbench.trust.manage');
  return false;
}
