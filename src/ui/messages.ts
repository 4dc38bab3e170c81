import * as vscode from 'vscode';
import { Cancelled } from '../agent/errors';
import { describeError } from './errorText';

/** Shows an error as the answer to a command the user ran, with Show Log. */
export async function showError(prefix: string, e: unknown): Promise<void> {
  if (e instanceof Cancelled) return;
  const choice = await vscode.window.showErrorMessage(`${prefix}: ${describeError(e)}`, 'Show Log');
  if (choice === 'Show Log') void vscode.commands.executeCommand('acp.showLog');
}

/** A chat was asked for an agent the settings no longer name. */
export function noSuchAgent(agentId: string): void {
  void vscode.window.showErrorMessage(`ACP: no agent "${agentId}" is configured.`);
}
