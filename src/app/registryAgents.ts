import { join } from 'node:path';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import type { Logger } from '../agent/log';
import type { AgentConfig } from '../agent/types';
import { findProgram } from '../platform/programs';
import { processAlive } from '../agent/processTree';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { RegistryAgent } from '../registry/format';
import { installBinary, type BinaryInstall } from '../registry/install';
import { compareVersions, installOf, leaseRun, releaseLease, sweepInstalls } from '../registry/installs';
import type { InstallWay, MachineFacts } from '../registry/installWay';
import { RegistrySource, type RegistryRead, type ShippedRegistry } from '../registry/registrySource';
import type { GetOptions } from '../registry/http';
import type { SettingsSource } from './settings';
import type { ValueStore } from './stores';

const PENDING_KEY = 'acp.registry.pendingSwitches';

/** Writes fields of one `acp.agents` entry (the UI's settings writer). */
export type EntryWriter = (agentId: string, fields: Record<string, unknown>) => Promise<void>;

export interface RegistryAgentsPorts {
  readonly agents: AgentRegistry;
  readonly settings: SettingsSource;
  readonly log: Logger;
  /** The extension's global storage: `registry/` (the kept copy) and `agents/` (installs) live there. */
  readonly storageDir: string;
  /** The copy shipped in the extension, for the public registry. */
  readonly shipped?: ShippedRegistry;
  /** Where pending switches are kept across reloads (global state). */
  readonly memory: ValueStore;
  /**
   * The `acp.registry.url` a workspace's own settings files hold, if any: the workbench leaves it
   * out of the settings (machine scope), so it is looked for to be named in the log.
   */
  readonly workspaceValue?: () => Promise<string | undefined>;
  /** Test certificates and timeouts for every request. */
  readonly http?: Partial<Pick<GetOptions, 'answerMs' | 'stallMs' | 'ca'>>;
  readonly platform?: NodeJS.Platform;
  readonly arch?: string;
}

/**
 * The ACP Registry as the window uses it, without vscode: the registry read from the address in
 * the User settings (never a workspace's: a value there is said in the log), installs of binary
 * agents, the updates the registry offers for agents installed from it, and the clean-up of
 * versions nothing uses. Each start of an installed agent leaves a lease in its folder (see
 * `installs.ts`). An update to a running agent waits: it is switched to when the agent stops or
 * restarts, and kept across a reload until then.
 */
export class RegistryAgents extends Disposable {
  readonly agentsDir: string;
  /** The registry's icons, made for the light and the dark theme. */
  readonly iconsDir: string;
  private readonly source: RegistrySource;
  private latest: RegistryRead | undefined;
  private readonly changeEmitter = this.register(new Emitter<void>());
  /** Fires when the updates on offer change. */
  readonly onDidChange = this.changeEmitter.event;
  private writer: EntryWriter | undefined;
  private saidIgnored: string | undefined;

  constructor(private readonly ports: RegistryAgentsPorts) {
    super();
    this.agentsDir = join(ports.storageDir, 'agents');
    this.iconsDir = join(ports.storageDir, 'registry', 'icons');
    this.source = new RegistrySource({
      dir: join(ports.storageDir, 'registry'),
      shipped: ports.shipped,
      http: ports.http,
    });
    this.register(ports.agents.onDidChangeState((host) => this.stateChanged(host)));
    this.register(ports.settings.onDidChange(() => this.sayIgnored()));
    this.sayIgnored();
  }

  get url(): string {
    return this.ports.settings.value.registry.url;
  }

  /** A registry address from the workspace's settings, which is ignored (said in the log once per value). */
  async ignoredValue(): Promise<string | undefined> {
    const ignored =
      this.ports.settings.value.registry.ignored ?? (await this.ports.workspaceValue?.().catch(() => undefined));
    this.sayIgnored(ignored);
    return ignored;
  }

  private sayIgnored(ignored = this.ports.settings.value.registry.ignored): void {
    if (ignored === undefined || ignored === this.saidIgnored) return;
    this.saidIgnored = ignored;
    this.ports.log.warn(
      `acp.registry.url in this workspace's settings ("${ignored}") is ignored: only your User settings choose where agents come from. Using ${this.url}.`,
    );
  }

  /** The agents configured now. */
  configured(): readonly AgentConfig[] {
    return this.ports.settings.value.agents;
  }

  /** What this machine is and has, as an install decides it. */
  machine(): MachineFacts {
    const platform = this.ports.platform ?? process.platform;
    return {
      platform,
      arch: this.ports.arch ?? process.arch,
      has: (program) => findProgram(program, { platform }) !== undefined,
    };
  }

  /** The registry (kept copy within the hour, see `RegistrySource`); the updates on offer follow it. */
  async read(force = false): Promise<RegistryRead> {
    void this.ignoredValue();
    const read = await this.source.read(this.url, force);
    if (read.problem) this.ports.log.warn(`registry: ${read.problem}`);
    const before = this.updateWords();
    this.latest = read;
    if (this.updateWords() !== before) this.changeEmitter.fire();
    return read;
  }

  /** The registry last read, if any (nothing is fetched). */
  get last(): RegistryRead | undefined {
    return this.latest;
  }

  private updateWords(): string {
    return this.ports.agents.all.map((h) => `${h.config.id}=${this.updateOf(h)?.version ?? ''}`).join(',');
  }

  /** The registry's newer version of an agent installed from it, from the registry last read. */
  updateOf(host: AgentHost): RegistryAgent | undefined {
    const mark = host.config.registry;
    const agent = mark && this.latest?.registry?.agents.find((a) => a.id === mark.id);
    if (!agent || compareVersions(agent.version, mark.version) <= 0) return undefined;
    return this.pending()[host.config.id]?.version === agent.version ? undefined : agent;
  }

  /** Installs a binary agent's version (see `installBinary`); the folder and command. */
  installBinary(agent: RegistryAgent, way: Extract<InstallWay, { kind: 'binary' }>, more: Partial<BinaryInstall> = {}) {
    return installBinary({
      agentsDir: this.agentsDir,
      id: agent.id,
      version: agent.version,
      target: way.target,
      http: this.ports.http,
      platform: this.ports.platform,
      ...more,
    });
  }

  /**
   * Removes the installed versions no entry uses and nothing runs (of these registry ids, or all).
   * `commands`: the entries' commands as just written, when the settings may not have caught up.
   */
  async sweep(ids?: readonly string[], commands?: readonly string[]): Promise<string[]> {
    const all = [
      ...(commands ?? this.ports.settings.value.agents.map((a) => a.command)),
      // A switch still waiting (in any window of this machine) keeps the version it switches to.
      ...Object.values(this.pending()).map((p) => String(p.fields.command ?? '')),
    ];
    const used = new Set(all.map((c) => installOf(this.agentsDir, c)?.dir).filter((d) => d !== undefined));
    const removed = await sweepInstalls(this.agentsDir, { used: (dir) => used.has(dir), alive: processAlive }, ids);
    for (const dir of removed) this.ports.log.info(`registry: removed ${dir}, which no agent uses any more`);
    return removed;
  }

  private pending(): Record<string, { version: string; fields: Record<string, unknown> }> {
    const kept = this.ports.memory.get(PENDING_KEY);
    return kept && typeof kept === 'object'
      ? (kept as Record<string, { version: string; fields: Record<string, unknown> }>)
      : {};
  }

  private async setPending(
    agentId: string,
    value?: { version: string; fields: Record<string, unknown> },
  ): Promise<void> {
    const next = { ...this.pending() };
    if (value) next[agentId] = value;
    else delete next[agentId];
    await this.ports.memory.update(PENDING_KEY, next);
  }

  /** Gives up this window's lease on a version folder it installed, once its entry is written. */
  async release(command: string): Promise<void> {
    const install = installOf(this.agentsDir, command);
    if (install) await releaseLease(install, process.pid).catch(() => {});
  }

  /** The version an update waits to switch to (the agent was running), if one does. */
  pendingVersion(agentId: string): string | undefined {
    return this.pending()[agentId]?.version;
  }

  /** Given once by the UI: how an entry's fields are written. Switches kept from before apply now. */
  setWriter(writer: EntryWriter): void {
    this.writer = writer;
    for (const id of Object.keys(this.pending())) {
      const host = this.ports.agents.get(id);
      if (!host) void this.setPending(id);
      else if (!isRunning(host)) void this.applyPending(id);
    }
  }

  /**
   * Switches an entry to another version: at once when the agent is not running, else when it
   * next stops or restarts. Returns when the switch happens.
   */
  async switchTo(agentId: string, version: string, fields: Record<string, unknown>): Promise<'now' | 'nextStart'> {
    await this.setPending(agentId, { version, fields });
    const host = this.ports.agents.get(agentId);
    if (host && isRunning(host)) {
      this.changeEmitter.fire();
      return 'nextStart';
    }
    await this.applyPending(agentId);
    return 'now';
  }

  /** A restart of an agent with a switch waiting: stopped, switched, and started as the new version. */
  async restartWithSwitch(agentId: string): Promise<boolean> {
    const host = this.ports.agents.get(agentId);
    if (!host || !this.pending()[agentId]) return false;
    await host.stop();
    await this.applyPending(agentId);
    const next = this.ports.agents.get(agentId);
    if (next) await next.connect();
    return true;
  }

  private applying = new Map<string, Promise<void>>();

  private applyPending(agentId: string): Promise<void> {
    const running = this.applying.get(agentId);
    if (running) return running;
    const p = (async () => {
      const entry = this.pending()[agentId];
      if (!entry || !this.writer) return;
      const old = this.ports.agents.get(agentId);
      await this.writer(agentId, entry.fields);
      await this.setPending(agentId);
      if (typeof entry.fields.command === 'string') await this.release(entry.fields.command);
      this.ports.log.info(`registry: ${agentId} switched to ${entry.version}`);
      await this.waitForReplace(agentId, old);
      this.changeEmitter.fire();
      const id = (entry.fields.registry as { id?: string } | undefined)?.id;
      if (id) this.sweepSoon(id);
    })().finally(() => this.applying.delete(agentId));
    this.applying.set(agentId, p);
    return p;
  }

  /** Resolves once the settings written reached the agents (a new host replaced `old`), or after 5 s. */
  private waitForReplace(agentId: string, old: AgentHost | undefined): Promise<void> {
    if (!old || this.ports.agents.get(agentId) !== old) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, 5_000);
      const sub = this.ports.agents.onDidChangeAgents(() => {
        if (this.ports.agents.get(agentId) !== old) done();
      });
      function done() {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  }

  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /**
   * Sweeps an agent's versions now and a few times more: the old process of a switch may still be
   * ending (its lease counts until it has), and Windows keeps its files a moment after.
   */
  private sweepSoon(id: string): void {
    for (const ms of [0, 1_000, 3_000, 10_000]) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.sweep([id]).catch(() => undefined);
      }, ms);
      timer.unref?.();
      this.timers.add(timer);
    }
  }

  override dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    super.dispose();
  }

  /**
   * Before an installed agent is spawned: a lease of this window's own, so that no sweep takes
   * the folder while the agent starts; it gives way to the agent's lease once the agent runs.
   */
  async beforeStart(config: AgentConfig): Promise<void> {
    const install = installOf(this.agentsDir, config.command);
    if (install) await leaseRun(install, process.pid).catch(() => undefined);
  }

  private stateChanged(host: AgentHost): void {
    const pid = host.connection?.pid;
    const install = installOf(this.agentsDir, host.config.command);
    if (install && host.state.kind === 'ready' && pid !== undefined)
      void leaseRun(install, pid)
        .then(() => releaseLease(install, process.pid))
        .catch((e: unknown) => this.ports.log.warn(`registry: no lease in ${install.dir}: ${String(e)}`));
    else if (install && host.state.kind !== 'starting') void releaseLease(install, process.pid).catch(() => undefined);
    if (!isRunning(host) && this.pending()[host.config.id]) void this.applyPending(host.config.id);
  }
}

function isRunning(host: AgentHost): boolean {
  return host.state.kind === 'ready' || host.state.kind === 'starting';
}
