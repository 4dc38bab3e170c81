import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { signInMethods } from '../agent/auth';
import { displayState, type AgentDisplayState } from '../app/agentStates';
import { Disposable } from '../base/lifecycle';

// The workbench gives no way to read a context key back, so the values set are kept here for
// the extension's tests.
const values = new Map<string, unknown>();

/** Sets a context key for `when` clauses; a value already set is not sent again. */
export function setContext(key: string, value: unknown): void {
  if (values.has(key) && values.get(key) === value) return;
  values.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

/** A context key as this extension last set it (for tests). */
export function contextKey(key: string): unknown {
  return values.get(key);
}

/** How an agent looks in the view, the status bar and the menus. */
export function shownState(host: AgentHost): AgentDisplayState {
  const { state } = host;
  return displayState(state.kind, host.needsSignIn, state.kind === 'failed' && state.atStart === true);
}

/** The agent is running, signed in, and advertises `agentCapabilities.auth.logout`. */
export function canLogout(host: AgentHost): boolean {
  return host.connection?.features.logout === true && shownState(host) === 'ready';
}

/** The agent asks for sign-in, or offers a way to sign in (known once it has started). */
export function canSignIn(host: AgentHost): boolean {
  return host.needsSignIn || signInMethods(host.connection?.features.authMethods ?? []).length > 0;
}

/**
 * The keys that decide which agent actions menus offer: `acp.noAgents` (nothing configured,
 * only Add Agent makes sense), `acp.canLogout` (some agent can sign out now) and
 * `acp.canSignIn` (some agent has a way to sign in).
 * `acp.canFork` (some running agent advertises `sessionCapabilities.fork`).
 */
export class AgentContextKeys extends Disposable {
  constructor(private readonly agents: AgentRegistry) {
    super();
    this.register(agents.onDidChangeAgents(() => this.update()));
    this.register(agents.onDidChangeState(() => this.update()));
    this.update();
  }

  private update(): void {
    const all = this.agents.all;
    setContext('acp.noAgents', all.length === 0);
    setContext('acp.canLogout', all.some(canLogout));
    setContext('acp.canSignIn', all.some(canSignIn));
    setContext(
      'acp.canFork',
      all.some((h) => h.connection?.features.fork === true),
    );
  }
}
