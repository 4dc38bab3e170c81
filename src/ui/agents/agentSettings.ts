import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import {
  agentsInSettingsText,
  asList,
  entryId,
  mergeEntries,
  withChanged,
  type RawAgents,
} from '../../agent/agentEntries';
import { Disposable, MutableDisposable } from '../../base/lifecycle';
import { setContext } from '../contextKeys';
import { ignoredLocalValue, machineValue, writtenValue, type MachineInspect } from '../../app/machineScope';
import { agentsAlreadyRemote, agentsCopied, noAgentConfigured } from '../messages';
import type { RegistrySettings } from '../../app/settings';
import { DEFAULT_REGISTRY_URL } from '../../registry/registrySource';

/**
 * Where `acp.agents` lives. It has `machine` scope (a repository's settings cannot name a
 * program to run), so a remote window (SSH, containers, Codespaces, code-server) reads it
 * from the Remote settings of the machine that runs the agents, and ignores the User settings;
 * a local window reads the User settings.
 */
export type AgentsScope = 'user' | 'remote';

export function agentsScope(): AgentsScope {
  return vscode.env.remoteName ? 'remote' : 'user';
}

/** The scope as the Settings editor names it. */
export function scopeName(scope: AgentsScope = agentsScope()): string {
  return scope === 'remote' ? 'Remote settings' : 'User settings';
}

function inspectMachine(key: string): MachineInspect | undefined {
  return vscode.workspace.getConfiguration('acp').inspect(key) as MachineInspect | undefined;
}

function inspectAgents(): MachineInspect | undefined {
  return inspectMachine('agents');
}

/** A `machine` setting (`acp.agents`, `acp.defaultAgent`, `acp.mcpServers`, `acp.terminal.shell`) as this window applies it. */
export function machineSetting(key: 'agents' | 'defaultAgent' | 'mcpServers' | 'terminal.shell'): unknown {
  const remote = agentsScope() === 'remote';
  return machineValue(inspectMachine(key), remote, vscode.workspace.getConfiguration('acp').get(key));
}

/**
 * `acp.registry.url` from the User settings (the Remote settings in a remote window) or its
 * default, never from a workspace or folder: a repository must not choose where agents come
 * from. A value written there is named, to be said in the log.
 */
export function registrySetting(): RegistrySettings {
  const inspected = vscode.workspace.getConfiguration('acp').inspect<unknown>('registry.url');
  const written = writtenValue(inspected as MachineInspect | undefined, agentsScope() === 'remote');
  const fallback = typeof inspected?.defaultValue === 'string' ? inspected.defaultValue : DEFAULT_REGISTRY_URL;
  const url = typeof written === 'string' && written.trim() ? written.trim() : fallback;
  const theirs = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  return { url, ...(theirs !== undefined ? { ignored: String(theirs) } : {}) };
}

/**
 * The `acp.registry.url` written in this workspace's own settings (a folder's
 * `.vscode/settings.json`, or the workspace file), which the workbench leaves out: read only to
 * be named in the log as ignored.
 */
export async function workspaceRegistryUrl(): Promise<string | undefined> {
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json')),
  ];
  const wsFile = vscode.workspace.workspaceFile;
  for (const file of files) {
    const value = await settingIn(file, ['acp.registry.url']);
    if (typeof value === 'string') return value;
  }
  if (wsFile?.scheme === 'file') {
    const value = await settingIn(wsFile, ['settings', 'acp.registry.url']);
    if (typeof value === 'string') return value;
  }
  return undefined;
}

async function settingIn(file: vscode.Uri, path: string[]): Promise<unknown> {
  try {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const node = findNodeAtLocation(parseTree(text) ?? EMPTY, path);
    return node?.value;
  } catch {
    return undefined;
  }
}

/** The list in the scope this window reads and writes, as written there. */
export function scopeAgents(): unknown[] {
  return asList(writtenValue(inspectAgents(), agentsScope() === 'remote'));
}

/**
 * Writes the list. `Global` lands in the Remote settings in a remote window: the workbench
 * sends a `machine` setting there, where it is read.
 */
export async function writeAgents(list: RawAgents): Promise<void> {
  await vscode.workspace.getConfiguration('acp').update('agents', list, vscode.ConfigurationTarget.Global);
}

/** Changes fields of one entry where this window writes `acp.agents` (its other fields stay). */
export async function writeEntryFields(agentId: string, fields: Record<string, unknown>): Promise<void> {
  await writeAgents(withChanged(scopeAgents(), agentId, fields));
}

/**
 * Opens the settings file this window reads `acp.agents` from (the Remote settings in a remote
 * window), at the setting, or at one agent's entry. The Settings editor cannot edit a list of
 * objects, so the JSON is where the entry can be changed.
 */
export async function openAgentSettings(agentId?: string): Promise<void> {
  const present = inspectAgents() !== undefined && scopeAgents().length > 0;
  const command =
    agentsScope() === 'remote' ? 'workbench.action.openRemoteSettingsFile' : 'workbench.action.openSettingsJson';
  await vscode.commands.executeCommand(command, { revealSetting: { key: 'acp.agents', edit: !present } });
  if (agentId) revealEntry(agentId);
}

const EMPTY = { type: 'object', offset: 0, length: 0 } as const;

/** Moves the cursor of the settings editor just opened to the entry with this id. */
function revealEntry(agentId: string): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !/settings\.json$/.test(editor.document.uri.path)) return;
  const list = findNodeAtLocation(parseTree(editor.document.getText()) ?? EMPTY, ['acp.agents']);
  const entry = list?.children?.find((n) => findNodeAtLocation(n, ['id'])?.value === agentId);
  if (!entry) return;
  const start = editor.document.positionAt(entry.offset);
  editor.selection = new vscode.Selection(start, start);
  editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * Agents written where this window does not read them: the User settings of a remote window.
 * The workbench hides them from extensions once it knows the setting's scope, so they are
 * found two ways: the merged value while it still holds them, and, where the User settings
 * live on the machine that runs the extension (code-server, `code serve-web`), the file beside
 * this extension's global storage. The view says so and offers to copy them over.
 */
export class IgnoredAgents extends Disposable {
  private found: unknown[] = [];
  private readonly watcher = this.register(new MutableDisposable<vscode.Disposable>());
  private checking: Promise<void> | undefined;

  constructor(private readonly globalStorage: vscode.Uri) {
    super();
  }

  /** The ignored entries last found (empty in a local window). */
  get entries(): readonly unknown[] {
    return this.found;
  }

  /** The User settings file next to the global storage, when the extension host can see it. */
  private userSettingsFile(): vscode.Uri | undefined {
    if (this.globalStorage.scheme !== 'file') return undefined;
    const storageDir = vscode.Uri.joinPath(this.globalStorage, '..');
    if (!storageDir.path.endsWith('/globalStorage')) return undefined;
    return vscode.Uri.joinPath(storageDir, '..', 'settings.json');
  }

  /** Looks again (called when the view shows no agent, and when the settings change). */
  check(): Promise<void> {
    this.checking ??= this.look().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async look(): Promise<void> {
    if (agentsScope() !== 'remote') return this.set([]);
    const early = asList(ignoredLocalValue(inspectAgents(), true));
    const file = this.userSettingsFile();
    let inFile: unknown[] = [];
    if (file) {
      this.watch(file);
      try {
        inFile = agentsInSettingsText(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) ?? [];
      } catch {
        // No such file: nothing is written there.
      }
    }
    this.set(mergeEntries(inFile, early).list.filter((e) => entryId(e) !== undefined));
  }

  private watch(file: vscode.Uri): void {
    if (this.watcher.value) return;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), 'settings.json'),
    );
    const again = () => void this.check();
    watcher.onDidChange(again);
    watcher.onDidCreate(again);
    watcher.onDidDelete(again);
    this.watcher.value = watcher;
  }

  private set(entries: unknown[]): void {
    this.found = entries;
    setContext('acp.agentsIgnored', entries.length > 0);
  }
}

/** The window's one watcher of ignored agents (made by `activate`), for the no-agent answer. */
let ignored: IgnoredAgents | undefined;

export function watchIgnoredAgents(globalStorage: vscode.Uri): IgnoredAgents {
  const made = new IgnoredAgents(globalStorage);
  made.register({ dispose: () => ignored === made && (ignored = undefined) });
  return (ignored = made);
}

/**
 * The one answer a command gives when it needs an agent and none is set up, whichever command
 * it is: why (nothing added yet, or agents in settings this window ignores) and the way out.
 */
export async function answerNoAgent(): Promise<void> {
  await ignored?.check();
  const choice = await noAgentConfigured((ignored?.entries.length ?? 0) > 0);
  if (choice === 'copy') await vscode.commands.executeCommand('acp.copyAgentsToRemote');
  else if (choice === 'add') await vscode.commands.executeCommand('acp.addAgent');
}

/** Copies the agents the User settings hold into the Remote settings (the User ones stay, for local windows). */
export async function copyIgnoredAgents(): Promise<number> {
  await ignored?.check();
  const { list, added } = mergeEntries(scopeAgents(), ignored?.entries ?? []);
  if (added.length === 0) {
    agentsAlreadyRemote();
    return 0;
  }
  await writeAgents(list);
  const names = added.map((e) => (e as { name?: unknown }).name ?? entryId(e)).join(', ');
  agentsCopied(names);
  return added.length;
}
