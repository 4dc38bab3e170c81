import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { downloadedPackage } from '../agent/agentEntries';
import { Disposable } from '../base/lifecycle';
import type { ValueStore } from './stores';

const KEY = 'acp.startedLaunches';
/** Launches remembered; the oldest are forgotten past this. */
const MAX_KEPT = 50;

/**
 * Remembers which launches (command and arguments) have started on this machine, so the view
 * can say that a first start through `npx` is downloading the agent rather than show a silent
 * "Loading…" for as long as the download takes.
 */
export class FirstStarts extends Disposable {
  constructor(
    agents: AgentRegistry,
    private readonly memory: ValueStore,
  ) {
    super();
    this.register(
      agents.onDidChangeState((host) => {
        if (host.state.kind === 'ready') this.remember(host);
      }),
    );
  }

  private key(host: AgentHost): string {
    return JSON.stringify([host.config.command, ...host.config.args]);
  }

  private started(): string[] {
    const kept = this.memory.get(KEY);
    return Array.isArray(kept) ? kept.filter((k): k is string => typeof k === 'string') : [];
  }

  private remember(host: AgentHost): void {
    const key = this.key(host);
    const kept = this.started();
    if (kept.includes(key)) return;
    void this.memory.update(KEY, [...kept, key].slice(-MAX_KEPT));
  }

  /** The package a starting agent's launcher is downloading for its first start, if that is what it is doing. */
  downloading(host: AgentHost): string | undefined {
    if (host.state.kind !== 'starting') return undefined;
    const pkg = downloadedPackage(host.config.command, host.config.args);
    return pkg && !this.started().includes(this.key(host)) ? pkg : undefined;
  }

  /** The words of the row shown while a list waits for its agent. */
  loadingLabel(host: AgentHost): string {
    const pkg = this.downloading(host);
    if (pkg) return `Starting ${host.config.name}: its first start downloads ${pkg}, which can take a minute…`;
    return host.state.kind === 'starting' ? `Starting ${host.config.name}…` : 'Loading sessions…';
  }
}
