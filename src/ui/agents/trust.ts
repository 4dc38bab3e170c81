import * as vscode from 'vscode';
import { StartRefused } from '../../agent/errors';
import type { AgentConfig } from '../../agent/types';
import type { SessionLists } from '../../sessions/sessionLists';
import { askToStartUntrusted, type TrustAnswer } from '../messages';

export type TrustPrompt = (config: AgentConfig) => Thenable<TrustAnswer>;

const defaultPrompt: TrustPrompt = askToStartUntrusted;

let prompt: TrustPrompt = defaultPrompt;
const allowedOnce = new Set<string>();

/** Replaces the modal question (payload-mode tests cannot answer modal dialogs). */
export function setTrustPrompt(fn: TrustPrompt | undefined): void {
  prompt = fn ?? defaultPrompt;
}

/**
 * In an untrusted workspace no agent process starts without the user's consent: trusting the
 * workspace, or allowing this agent once for this window.
 */
export async function mayStartAgent(config: AgentConfig): Promise<boolean> {
  if (vscode.workspace.isTrusted || allowedOnce.has(config.id)) return true;
  const answer = await prompt(config);
  if (answer === 'allowOnce') {
    allowedOnce.add(config.id);
    return true;
  }
  if (answer === 'manageTrust') void vscode.commands.executeCommand('workbench.trust.manage');
  return false;
}

/**
 * Trusting the workspace answers what the "not trusted" rows were waiting for: their lists
 * fetch again at once, without the user pressing Retry.
 */
export function retryListsOnTrust(lists: SessionLists): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() => {
    for (const list of lists.all()) if (list.state === 'error' && list.error instanceof StartRefused) void list.retry();
  });
}
