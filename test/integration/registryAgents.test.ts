// The window's side of registry installs against real agent processes: a running agent leaves a
// lease that keeps its version folder; a version no entry uses and nothing runs is removed; an
// update to a running agent waits for its next start; a registry address from the workspace's
// settings is named in the log as ignored.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRegistry } from '../../src/agent/agentHost';
import { parseAgents } from '../../src/agent/config';
import { MemoryLogger, silentLogger } from '../../src/agent/log';
import { RegistryAgents } from '../../src/app/registryAgents';
import type { Settings, SettingsSource } from '../../src/app/settings';
import { Emitter } from '../../src/base/event';
import { MARKER } from '../../src/registry/install';
import { agentScript, useSeededFolder } from '../support/refAgent';
import { waitFor } from '../support/wait';

const posix = process.platform !== 'win32';

(posix ? describe : describe.skip)('Registry agents in a window: leases, clean-up, updates', function () {
  this.timeout(30_000);
  const { dir, store, cwd, running } = useSeededFolder<{ stop(): Promise<void> }>(2, 1);

  /** A version folder as an install leaves it, with the script that starts the reference agent. */
  function fakeInstall(agentsDir: string, version: string): string {
    const bin = join(agentsDir, 'ref-agent', version, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, '..', MARKER), '{}');
    const command = join(bin, 'ref-agent');
    writeFileSync(command, `#!/bin/sh\nexec "${process.execPath}" "${agentScript}" "$@"\n`);
    chmodSync(command, 0o755);
    return command;
  }

  function world(name: string, ignored?: string) {
    const storageDir = join(dir.path, name);
    const agentsDir = join(storageDir, 'agents');
    const emitter = new Emitter<Settings>();
    let value = {
      agents: [],
      registry: { url: 'http://127.0.0.1:9/registry.json', ...(ignored ? { ignored } : {}) },
    } as unknown as Settings;
    const settings: SettingsSource = {
      get value() {
        return value;
      },
      onDidChange: emitter.event,
    };
    const agents = new AgentRegistry({
      logger: silentLogger,
      clientInfo: { name: 't', version: '0' },
      trace: () => 'off',
      handlers: () => ({ requestPermission: async () => ({ outcome: { outcome: 'cancelled' } }) }),
    });
    running.push({ stop: () => agents.stopAll() });
    const kept = new Map<string, unknown>();
    const log = new MemoryLogger();
    const registry = new RegistryAgents({
      agents,
      settings,
      log,
      storageDir,
      memory: { get: (k) => kept.get(k), update: async (k, v) => void kept.set(k, v) },
    });
    let raw: Record<string, unknown>[] = [];
    const write = (list: Record<string, unknown>[]) => {
      raw = list;
      value = { ...value, agents: parseAgents(list).agents };
      agents.update(value.agents, '');
      emitter.fire(value);
    };
    registry.setWriter(async (id, fields) => write(raw.map((e) => (e.id === id ? { ...e, ...fields } : e))));
    return { agentsDir, agents, registry, log, write, entries: () => raw };
  }

  const entry = (command: string, version: string) => ({
    id: 'ref-agent',
    name: 'Reference Agent',
    command,
    args: ['--store', store],
    registry: { id: 'ref-agent', version, distribution: 'binary' },
  });

  it('keeps a version a running agent was started from, and removes the one nothing uses', async () => {
    const w = world('leases');
    const old = fakeInstall(w.agentsDir, '1.0.0');
    const used = fakeInstall(w.agentsDir, '1.1.0');
    w.write([entry(old, '1.0.0')]);
    const host = w.agents.get('ref-agent')!;
    assert.equal((await host.listSessions({ cwd })).sessions.length, 2);
    const pid = host.connection!.pid!;
    await waitFor('the lease', () => existsSync(join(w.agentsDir, 'ref-agent', '1.0.0', '.acp-running', String(pid))));
    // The entry moves to 1.1.0 by hand while 1.0.0 still runs in another host (the old one stays up here).
    const keep = w.agents.get('ref-agent')!;
    assert.deepEqual(await w.registry.sweep(['ref-agent'], [used]), []);
    assert.ok(existsSync(join(w.agentsDir, 'ref-agent', '1.0.0')), 'the running version stays');
    await keep.stop();
    assert.deepEqual(await w.registry.sweep(['ref-agent'], [used]), [join(w.agentsDir, 'ref-agent', '1.0.0')]);
    assert.ok(existsSync(join(w.agentsDir, 'ref-agent', '1.1.0')), 'the used version stays');
  });

  it('holds an update for a running agent until it stops, then switches and removes the old version', async () => {
    const w = world('switch');
    const old = fakeInstall(w.agentsDir, '1.0.0');
    const next = fakeInstall(w.agentsDir, '1.1.0');
    w.write([entry(old, '1.0.0')]);
    const host = w.agents.get('ref-agent')!;
    await host.connect();
    const pid = host.connection!.pid!;
    await waitFor('the lease', () => existsSync(join(w.agentsDir, 'ref-agent', '1.0.0', '.acp-running', String(pid))));
    const when = await w.registry.switchTo('ref-agent', '1.1.0', {
      command: next,
      registry: { id: 'ref-agent', version: '1.1.0', distribution: 'binary' },
    });
    assert.equal(when, 'nextStart');
    assert.equal(w.registry.pendingVersion('ref-agent'), '1.1.0');
    assert.equal(w.entries()[0]!.command, old, 'nothing switched while it runs');
    // A pending switch keeps its version even from a sweep.
    assert.deepEqual(await w.registry.sweep(['ref-agent'], []), []);
    assert.ok(existsSync(join(w.agentsDir, 'ref-agent', '1.1.0')));
    await host.stop();
    await waitFor('the switch', () => w.entries()[0]!.command === next);
    await waitFor('the old version removed', () => !existsSync(join(w.agentsDir, 'ref-agent', '1.0.0')));
    assert.equal(w.registry.pendingVersion('ref-agent'), undefined);
    const fresh = w.agents.get('ref-agent')!;
    assert.notEqual(fresh, host);
    assert.equal(fresh.config.registry?.version, '1.1.0');
    assert.equal((await fresh.listSessions({ cwd })).sessions.length, 2);
  });

  it("names a workspace's registry address in the log as ignored, once", async () => {
    const w = world('ignored', 'http://127.0.0.1:2/evil.json');
    await w.registry.read();
    await w.registry.read();
    const said = w.log.lines.filter((l) => l.includes('is ignored'));
    assert.equal(said.length, 1, w.log.lines.join('\n'));
    assert.match(
      said[0]!,
      /acp\.registry\.url in this workspace's settings \("http:\/\/127\.0\.0\.1:2\/evil\.json"\) is ignored/,
    );
  });
});
