import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { displayState } from './agentStates';
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

/** The agent is running, signed in, and advertises `agentCapabilities.auth.logout`. */
export function canLogout(host: AgentHost): boolean {
  return host.connection?.features.logout === true && displayState(host.state.kind, host.needsSignIn) === 'ready';
}

/**
 * The keys that decide which agent actions menus offer: `acp.noAgents` (nothing configured,
 * only Add Agent makes sense), `acp.canLogout` (some agent can sign out now) and
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
    setContext(
      'acp.canFork',
      all.some((h) => h.connection?.features.fork === true),
    );
  }
}
