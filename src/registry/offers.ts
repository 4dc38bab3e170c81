/**
 * What "Add Agent" offers: the registry's agents, each with how it installs here (or why it
 * cannot), marked when already set up; the built-in presets joined to the registry entry that
 * runs the same program, so what was checked for the preset is said on that entry; presets with
 * no such entry, or whose program is already installed on this machine, on rows of their own;
 * and the registry's unusable entries, shown as unavailable. Pure: the machine's facts are given.
 */
import type { AgentPreset } from '../agent/presets';
import type { AgentConfig } from '../agent/types';
import type { RegistryAgent, UnavailableAgent } from './format';
import { installWay, isWay, npmName, type InstallWay, type MachineFacts, type NoWay } from './installWay';

export type Offer =
  | {
      readonly kind: 'registry';
      readonly agent: RegistryAgent;
      readonly way: InstallWay | NoWay;
      /** The preset checked for the same program, whose notes hold for this entry. */
      readonly preset?: AgentPreset;
      /** The configured agents installed from this entry. */
      readonly setUp: readonly AgentConfig[];
    }
  | {
      readonly kind: 'preset';
      readonly preset: AgentPreset;
      readonly found: boolean;
      readonly setUp: readonly AgentConfig[];
    }
  | { readonly kind: 'unavailable'; readonly entry: UnavailableAgent };

/** The program a binary target runs, by name (`./bin/codex-acp.exe` → `codex-acp`). */
function programName(cmd: string): string {
  return (cmd.split(/[\\/]/).pop() ?? cmd).replace(/\.exe$/i, '');
}

/** Whether the registry entry runs what the preset was checked with. */
export function presetMatches(preset: AgentPreset, agent: RegistryAgent): boolean {
  const r = preset.registry;
  if (!r || r.id !== agent.id) return false;
  const npx = agent.distribution.npx;
  if (r.npx && npx && npmName(npx.package) === r.npx) return true;
  const targets = Object.values(agent.distribution.binary ?? {});
  return r.binary !== undefined && targets.length > 0 && targets.every((t) => programName(t.cmd) === r.binary);
}

function sameLaunch(config: AgentConfig, command: string, args: readonly string[]): boolean {
  return config.command === command && config.args.length === args.length && config.args.every((a, i) => a === args[i]);
}

export interface OfferInputs {
  readonly agents: readonly RegistryAgent[];
  readonly unavailable: readonly UnavailableAgent[];
  readonly presets: readonly AgentPreset[];
  readonly configured: readonly AgentConfig[];
  readonly machine: MachineFacts;
  /** Whether a preset's program is on PATH. */
  readonly found: (program: string) => boolean;
}

export function offers(i: OfferInputs): Offer[] {
  const out: Offer[] = [];
  const joined = new Set<AgentPreset>();
  for (const agent of i.agents) {
    const preset = i.presets.find((p) => presetMatches(p, agent));
    if (preset) joined.add(preset);
    const way = installWay(agent, i.machine);
    const setUp = i.configured.filter(
      (c) =>
        c.registry?.id === agent.id || (isWay(way) && way.kind !== 'binary' && sameLaunch(c, way.command, way.args)),
    );
    out.push({ kind: 'registry', agent, way, ...(preset ? { preset } : {}), setUp });
  }
  for (const preset of i.presets) {
    const found = i.found(preset.requires);
    // A preset joined to a registry entry stays as its own row only where it runs what is already
    // installed here (its own program, not a launcher that downloads it again).
    if (joined.has(preset) && (preset.requires === 'npx' || !found)) continue;
    const setUp = i.configured.filter((c) => sameLaunch(c, preset.command, preset.args));
    out.push({ kind: 'preset', preset, found, setUp });
  }
  for (const entry of i.unavailable) out.push({ kind: 'unavailable', entry });
  return out;
}
