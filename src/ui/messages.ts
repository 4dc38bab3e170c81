import * as vscode from 'vscode';
import { Cancelled } from '../agent/errors';
import type { AgentConfig } from '../agent/types';
import { describeError } from '../app/errorText';

/**
 * Every pop-up the extension shows, in one place: what it says and which actions it offers. A
 * notification only answers a command the user ran (states are rows in the Sessions view).
 * Errors come with Show Log, which holds the agent's side of the story.
 */

const SHOW_LOG = 'Show Log';

async function withShowLog(shown: Thenable<string | undefined>): Promise<void> {
  if ((await shown) === SHOW_LOG) void vscode.commands.executeCommand('acp.showLog');
}

/** Shows an error as the answer to a command the user ran, with Show Log. A cancel is no error. */
export async function showError(prefix: string, e: unknown): Promise<void> {
  if (e instanceof Cancelled) return;
  await withShowLog(vscode.window.showErrorMessage(`${prefix}: ${describeError(e)}`, SHOW_LOG));
}

/** Asks before a destructive action or one that runs a program (modal); true when the user chose `action`. */
export type Confirm = (message: string, action: string, detail?: string) => Thenable<boolean>;

export const confirmModal: Confirm = async (message, action, detail) =>
  (await vscode.window.showWarningMessage(message, { modal: true, ...(detail ? { detail } : {}) }, action)) === action;

/** What the user answered when asked to start an agent in Restricted Mode. */
export type TrustAnswer = 'allowOnce' | 'manageTrust' | undefined;

/** Restricted Mode: may this agent start anyway (modal)? */
export async function askToStartUntrusted(config: AgentConfig): Promise<TrustAnswer> {
  const choice = await vscode.window.showWarningMessage(
    `This workspace is in Restricted Mode. Start the agent "${config.name}" (${config.command}) anyway? It can read and change files.`,
    { modal: true },
    'Allow Once',
    'Manage Workspace Trust',
  );
  return choice === 'Allow Once' ? 'allowOnce' : choice === 'Manage Workspace Trust' ? 'manageTrust' : undefined;
}

/**
 * A command needs an agent and none is set up: why (nothing added yet, or agents in User
 * settings that this remote window ignores) and the way out.
 */
export async function noAgentConfigured(misplaced: boolean): Promise<'copy' | 'add' | undefined> {
  const copy = 'Copy to Remote Settings';
  const add = 'Add Agent';
  const choice = misplaced
    ? await vscode.window.showInformationMessage(
        'ACP: your agents are in your User settings, which a remote window does not read: agents run on the remote machine, so they belong in the Remote settings.',
        copy,
        add,
      )
    : await vscode.window.showInformationMessage(
        'ACP: no agent is set up yet. Add one to start and continue its sessions here.',
        add,
      );
  return choice === copy ? 'copy' : choice === add ? 'add' : undefined;
}

/** "Copy to Remote Settings" found nothing to copy. */
export function agentsAlreadyRemote(): void {
  void vscode.window.showInformationMessage('ACP: the Remote settings already have every agent of your User settings.');
}

/** "Copy to Remote Settings" copied `names`. */
export function agentsCopied(names: string): void {
  void vscode.window.showInformationMessage(
    `ACP: copied ${names} to "acp.agents" in your Remote settings. Your User settings keep them for local windows.`,
  );
}

/** A command line for an agent was refused: `problem` says why (its program is not found…). */
export function badAgentCommand(problem: string): void {
  void vscode.window.showErrorMessage(`ACP: ${problem}`);
}

/** An agent's entry is not in the settings this window writes (written by hand somewhere else). */
export function agentNotEditable(name: string, where: string): void {
  void vscode.window.showWarningMessage(
    `ACP: ${name} is not in the "acp.agents" of your ${where}, so it cannot be changed here.`,
  );
}

/** An agent's entry was changed in, or removed from, the settings named by `where`. */
export function agentSaved(name: string, where: string, removed = false): void {
  void vscode.window.showInformationMessage(
    `ACP: ${removed ? 'removed' : 'saved'} ${name} ${removed ? 'from' : 'in'} your ${where}.`,
  );
}

/** "Focus Chat Input" with no chat open. */
export function noChatOpen(): void {
  void vscode.window.showInformationMessage('ACP: no chat is open.');
}

/** A command needs a folder and the window has none. */
export function openAFolder(): void {
  void vscode.window.showInformationMessage('ACP: open a folder to see and start its sessions.');
}

/** A chat was asked for an agent the settings no longer name. */
export function noSuchAgent(agentId: string): void {
  void vscode.window.showErrorMessage(`ACP: no agent "${agentId}" is configured.`);
}

/** A session link the extension cannot act on: `why` says what is wrong with it. */
export function badLink(why: string): void {
  void vscode.window.showErrorMessage(`ACP: ${why}`);
}

/** No configured agent lists the session a link names (listing failures are in the log). */
export function linkedSessionNotFound(sessionId: string): void {
  void withShowLog(
    vscode.window.showErrorMessage(`ACP: no configured agent knows the session "${sessionId.slice(0, 64)}".`, SHOW_LOG),
  );
}

/** A location the agent named cannot be opened. */
export function cannotOpenFile(fsPath: string): void {
  void vscode.window.showWarningMessage(`ACP: cannot open ${fsPath}.`);
}

/** An agent preset's program is not installed: `how` says what to install. */
export function presetNotInstalled(how: string): void {
  void vscode.window.showWarningMessage(`ACP: ${how}`);
}

/**
 * An agent was added to the settings named by `where`; `download` names the package its first
 * start fetches. True when the user asked to see the setting.
 */
export async function agentAdded(
  name: string,
  where: string,
  download?: { pkg: string; by: string },
): Promise<boolean> {
  const first = download
    ? ` Its first start downloads ${download.pkg} with ${download.by}, which can take a minute.`
    : '';
  const open = 'Open Settings';
  return (
    (await vscode.window.showInformationMessage(
      `ACP: added ${name} to "acp.agents" in your ${where}.${first}`,
      open,
    )) === open
  );
}

/** The agent offers no way to sign in through the client. */
export function noSignInMethod(name: string): void {
  void vscode.window.showWarningMessage(
    `ACP: ${name} offers no sign-in method. Sign in with its own command line, or set the key it needs in "acp.agents" (secrets: "ACP: Set Agent Secret").`,
  );
}

/** A sign-in run in a terminal failed (`code`) or was closed before it finished. */
export function terminalSignInFailed(name: string, code: number | undefined): void {
  void withShowLog(
    vscode.window.showWarningMessage(
      code === undefined
        ? `ACP: signing in to ${name} was closed before it finished.`
        : `ACP: signing in to ${name} failed (exit code ${code}).`,
      SHOW_LOG,
    ),
  );
}

export function signedIn(name: string): void {
  void vscode.window.showInformationMessage(`ACP: signed in to ${name}.`);
}

export function cannotSignOut(name: string): void {
  void vscode.window.showInformationMessage(`ACP: ${name} does not offer signing out.`);
}

export function signedOut(name: string): void {
  void vscode.window.showInformationMessage(`ACP: signed out of ${name}.`);
}

/** A secret was stored; the agents that use it were restarted. */
export function secretStored(secretName: string, restarted: readonly string[]): void {
  void vscode.window.showInformationMessage(
    `ACP: stored the secret "${secretName}".${restarted.length ? ` Restarted ${restarted.join(', ')}.` : ''}`,
  );
}

/** Parts of `acp.sessions.hide` that cannot be used (each sentence names the setting), with Open Settings. */
export function badHideSetting(errors: readonly string[]): void {
  void vscode.window.showWarningMessage(`ACP: ${errors.join(' ')}`, 'Open Settings').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'acp.sessions.hide');
  });
}

/** Reset Name on a session that shows the agent's own title. */
export function noNameToReset(): void {
  void vscode.window.showInformationMessage('ACP: this session has no name of yours; it shows the agent’s title.');
}

/** A registry agent that cannot be installed on this machine, and why (what to install first). */
export function registryAgentNotOffered(name: string, why: string, hint?: string): void {
  void vscode.window.showWarningMessage(
    `ACP: ${name} cannot be added on this machine: it ${why}.${hint ? ` ${hint}` : ''}`,
  );
}

/** A registry install failed or was refused: why, with Show Log. Cancelling is no error. */
export async function registryInstallFailed(name: string, why: string): Promise<void> {
  await withShowLog(vscode.window.showErrorMessage(`ACP: ${name} was not installed: ${why}`, SHOW_LOG));
}

/** An update was installed; `when` says whether the agent switched now or does at its next start. */
export function agentUpdated(name: string, version: string, when: 'now' | 'nextStart'): void {
  void vscode.window.showInformationMessage(
    when === 'now'
      ? `ACP: ${name} is updated to ${version}; it starts as ${version} from now on.`
      : `ACP: ${name} ${version} is installed beside the running version; ${name} switches to it when it next starts (Restart it to switch now).`,
  );
}
