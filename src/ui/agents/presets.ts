import * as vscode from 'vscode';
import { checkCommand, downloadedPackage, entryId } from '../../agent/agentEntries';
import { splitCommandLine } from '../../agent/commandLine';
import {
  customEntry,
  findOnPath,
  notInstalledMessage,
  presetEntry,
  PRESETS,
  type AgentEntry,
} from '../../agent/presets';
import { agentsScope, openAgentSettings, scopeAgents, scopeName, writeAgents } from './agentSettings';
import { agentAdded, badAgentCommand, presetNotInstalled } from '../messages';
import { installWay } from '../../registry/installWay';
import { pickAgent } from './registryPicker';
import { installChosen, type RegistryInstallDeps } from './registryInstall';

/**
 * What "Add Agent" may be given instead of asking (tests, links): a preset id, a registry
 * agent's id (its install is still shown and asked), or a command line and a name.
 */
export interface AddAgentArgs {
  preset?: string;
  registry?: string;
  command?: string;
  name?: string;
}

/** What Add Agent needs for the registry; without it, only the presets and a custom command. */
export interface AddAgentDeps extends RegistryInstallDeps {
  /** `media/registry/icons` of the extension. */
  readonly shippedIcons: string;
}

/** The folder a relative command is found from: agents start in the window's first folder. */
function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
}

/** Why a command line cannot be added, or undefined when its program is found on this machine. */
export function commandProblem(line: string): string | undefined {
  const [program] = splitCommandLine(line);
  if (!program) return 'Type the command that starts the agent.';
  const check = checkCommand(program, { cwd: firstFolder() });
  return check.found ? undefined : check.why;
}

/** Where the agents go, for the picker's title: a remote window runs them on the remote machine. */
function whereWords(): string {
  return agentsScope() === 'remote'
    ? `Agents run on ${vscode.env.remoteName}: written to your Remote settings`
    : 'Written to your User settings';
}

/**
 * "ACP: Add Agent": a preset or a custom command, checked on this machine before it is
 * written to `acp.agents` where this window reads it. Returns the new agent's id.
 */
export async function addAgent(args: AddAgentArgs = {}, deps?: AddAgentDeps): Promise<string | undefined> {
  const taken = scopeAgents().map(entryId);
  let entry: AgentEntry | undefined;
  const preset = args.preset !== undefined ? PRESETS.find((p) => p.id === args.preset) : undefined;
  if (args.registry !== undefined && deps) {
    const agent = (await deps.registry.read()).registry?.agents.find((a) => a.id === args.registry);
    if (!agent) {
      badAgentCommand(`"${args.registry}" is not in the ACP Registry at ${deps.registry.url}.`);
      return undefined;
    }
    entry = await installChosen(deps, agent, installWay(agent, deps.registry.machine()), taken);
  } else if (args.command !== undefined) {
    const problem = commandProblem(args.command);
    if (problem) {
      badAgentCommand(problem);
      return undefined;
    }
    entry = customEntry(args.command, args.name, taken);
  } else if (preset) {
    entry = presetChosen(preset, taken);
  } else if (deps) {
    const choice = await pickAgent({
      registry: deps.registry,
      shippedIcons: deps.shippedIcons,
      title: `Add Agent — ${whereWords()}`,
    });
    if (choice?.kind === 'registry') entry = await installChosen(deps, choice.agent, choice.way, taken, choice.size);
    else if (choice?.kind === 'preset') entry = presetChosen(choice.preset, taken);
    else if (choice?.kind === 'custom') entry = await customChosen(taken);
  } else {
    entry = await pickEntry(taken);
  }
  if (!entry) return undefined;
  await writeAgents([...scopeAgents(), entry]);
  // The install's folder is held until its entry is written.
  await deps?.registry.release(entry.command);
  void tellAdded(entry);
  return entry.id;
}

type PresetPick = vscode.QuickPickItem & { preset?: (typeof PRESETS)[number]; custom?: true };

async function pickEntry(taken: readonly unknown[]): Promise<AgentEntry | undefined> {
  // What each preset needs, and whether this machine has it, before the user picks.
  const items: PresetPick[] = PRESETS.map((p) => ({
    label: p.name,
    description: [p.command, ...p.args].join(' '),
    detail: presetNeeds(p, findOnPath(p.requires) !== undefined),
    preset: p,
  }));
  items.push({
    label: '$(terminal) Custom command…',
    description: 'Any program that speaks ACP over stdio',
    detail: 'Its program is looked up on this machine before it is added.',
    custom: true,
  });
  const choice = await vscode.window.showQuickPick(items, {
    title: `Add Agent — ${whereWords()}`,
    placeHolder: 'Which agent do you want to add?',
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (choice.preset) return presetChosen(choice.preset, taken);
  return customChosen(taken);
}

/** "Custom command…": the command line, checked on this machine as it is typed, then a name. */
async function customChosen(taken: readonly unknown[]): Promise<AgentEntry | undefined> {
  const line = await vscode.window.showInputBox({
    title: 'Add Agent — custom command',
    prompt: 'The command that starts the agent: its program (a name on PATH or an absolute path) and arguments',
    placeHolder: '/usr/local/bin/my-agent --acp',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? commandProblem(value) : undefined),
  });
  if (!line?.trim() || commandProblem(line)) return undefined;
  const program = splitCommandLine(line)[0]!;
  const name = await vscode.window.showInputBox({
    title: 'Add Agent — name',
    prompt: 'A name for this agent, as the Sessions view shows it',
    value: program.split(/[\\/]/).pop(),
    ignoreFocusOut: true,
  });
  if (name === undefined) return undefined;
  return customEntry(line, name, taken);
}

/**
 * What a preset needs, as one line under its name: with its program found, only how sign-in
 * goes; without it, how to install it too.
 */
export function presetNeeds(p: (typeof PRESETS)[number], found: boolean): string {
  if (!found) return `$(warning) ${p.requires} not found on this machine. ${p.install} ${p.signIn}`;
  return `$(check) ${p.requires} found. ${p.signIn}`;
}

function presetChosen(p: (typeof PRESETS)[number], taken: readonly unknown[]): AgentEntry | undefined {
  if (!findOnPath(p.requires)) {
    presetNotInstalled(notInstalledMessage(p));
    return undefined;
  }
  return presetEntry(p, taken);
}

/** Says where the entry went and, for a launcher that downloads its package, that the first start takes a while. */
async function tellAdded(entry: AgentEntry): Promise<void> {
  const pkg = downloadedPackage(entry.command, entry.args);
  if (await agentAdded(entry.name, scopeName(), pkg ? { pkg, by: entry.command } : undefined)) {
    await openAgentSettings(entry.id);
  }
}
