/**
 * The `acp.agents` entry a registry agent becomes, and the words that say, before anything is
 * fetched or run, what the install will download, where it goes, and what it will run.
 */
import * as nodePath from 'node:path';
import { joinCommandLine } from '../agent/commandLine';
import { uniqueId, type AgentEntry } from '../agent/presets';
import type { RegistryMark } from '../agent/types';
import type { RegistryAgent } from './format';
import { commandParts, versionDir } from './install';
import type { InstallWay } from './installWay';
import { sizeText } from './download';

export type RegistryEntry = AgentEntry & { registry: RegistryMark };

/** The entry for an agent installed one way (for a binary, from the folder it was installed in). */
export function registryEntry(
  agent: RegistryAgent,
  way: InstallWay,
  takenIds: Iterable<unknown>,
  installedCommand?: string,
): RegistryEntry {
  const registry: RegistryMark = { id: agent.id, version: agent.version, distribution: way.kind };
  const id = uniqueId(agent.id, takenIds);
  if (way.kind === 'binary') {
    if (!installedCommand) throw new Error('a binary entry needs the installed command');
    return {
      id,
      name: agent.name,
      command: installedCommand,
      args: [...way.target.args],
      env: { ...way.target.env },
      registry,
    };
  }
  return { id, name: agent.name, command: way.command, args: [...way.args], env: { ...way.env }, registry };
}

/** The entry moved to another version of the same agent (an update): its own fields stay. */
export function updatedFields(
  agent: RegistryAgent,
  way: InstallWay,
  installedCommand?: string,
): Record<string, unknown> {
  const registry: RegistryMark = { id: agent.id, version: agent.version, distribution: way.kind };
  if (way.kind === 'binary')
    return { command: installedCommand, args: [...way.target.args], env: { ...way.target.env }, registry };
  return { command: way.command, args: [...way.args], env: { ...way.env }, registry };
}

/** What an install will do, in lines for the user, before it does anything. */
export function installPlan(
  agent: RegistryAgent,
  way: InstallWay,
  agentsDir: string,
  options: { size?: number; platform?: NodeJS.Platform } = {},
): { download?: string; folder?: string; runs: string } {
  if (way.kind !== 'binary') {
    const by = way.kind === 'npx' ? 'npm' : 'uv';
    return {
      runs: joinCommandLine(way.command, way.args),
      download: `${by} fetches ${agent.name} ${agent.version} into its own cache on the first start`,
    };
  }
  const dir = versionDir(agentsDir, agent.id, agent.version);
  const parts = commandParts(way.target.cmd, options.platform);
  const folder = typeof dir === 'string' ? dir : agentsDir;
  const program = typeof parts === 'string' ? way.target.cmd : nodePath.join(folder, ...parts);
  const size = options.size !== undefined ? ` (${sizeText(options.size)})` : '';
  return {
    download: `${way.target.archive}${size}`,
    folder,
    runs: joinCommandLine(program, way.target.args),
  };
}
