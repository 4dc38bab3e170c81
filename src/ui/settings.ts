import * as vscode from 'vscode';
import { parseAgents } from '../agent/config';
import { parseMcpServers } from '../agent/mcp';
import { SHELL_SETTINGS } from '../agent/shells';
import { compileHideRules } from '../sessions/hide';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { CheckpointSettings, Settings, SettingsSource } from '../app/settings';
import { DEFAULT_SKIP } from '../checkpoints/skipRules';
import { machineSetting, registrySetting } from './agents/agentSettings';

/** The library's size bounds, in MB (the setting's schema says the same). */
const LIBRARY_MB = { min: 16, max: 65_536, default: 256 };

function read(): Settings {
  const c = vscode.workspace.getConfiguration('acp');
  const { agents, problems } = parseAgents(machineSetting('agents'));
  const mcp = parseMcpServers(machineSetting('mcpServers'), 'acp.mcpServers');
  const openMode = c.get<string>('openMode');
  const trace = c.get<string>('trace');
  const mb = c.get<number>('library.maxSizeMB');
  const maxMB =
    typeof mb === 'number' && Number.isFinite(mb)
      ? Math.min(LIBRARY_MB.max, Math.max(LIBRARY_MB.min, mb))
      : LIBRARY_MB.default;
  const hide = compileHideRules(userValue(c, 'sessions.hide'));
  return {
    agents,
    problems: [
      ...problems,
      ...mcp.problems.map((message) => ({ index: -1, message })),
      ...hide.errors.map((message) => ({ index: -1, message })),
    ],
    mcpServers: mcp.servers,
    defaultAgent: stringOr(machineSetting('defaultAgent'), ''),
    openMode: openMode === 'load' || openMode === 'resume' ? openMode : 'auto',
    trace: trace === 'messages' || trace === 'verbose' ? trace : 'off',
    confirmWritesTo: stringList(c.get('confirmWritesTo')),
    library: { enabled: c.get<boolean>('library.enabled') !== false, maxBytes: Math.round(maxMB * 1024 * 1024) },
    hide,
    handoff: { maxBriefingChars: Math.round(bounded(c.get('handoff.maxBriefingChars'), 1_000, 100_000, 12_000)) },
    // Machine scope, like the agents: it chooses a program to run.
    terminalShell: SHELL_SETTINGS.find((v) => v === machineSetting('terminal.shell')) ?? 'auto',
    checkpoints: readCheckpoints(c),
    worktrees: {
      location: stringOr(c.get('worktrees.location'), '').trim(),
      copyFiles: stringList(c.get('worktrees.copyFiles')),
      // Read from the User settings only: a repository's settings cannot put a command in the offer.
      setupCommand: stringOr(userValue(c, 'worktrees.setupCommand'), '').trim(),
    },
    registry: registrySetting(),
  };
}

function readCheckpoints(c: vscode.WorkspaceConfiguration): CheckpointSettings {
  const skip = c.get<unknown>('checkpoints.skip');
  const gitPath = vscode.workspace.getConfiguration('git').get<unknown>('path');
  return {
    enabled: c.get<boolean>('checkpoints.enabled') !== false,
    maxFileBytes: Math.round(bounded(c.get('checkpoints.maxFileSizeMB'), 0.1, 1024, 5) * 1024 * 1024),
    skip: Array.isArray(skip) ? stringList(skip) : DEFAULT_SKIP,
    keepDays: bounded(c.get('checkpoints.keepDays'), 1, 3650, 30),
    maxBytes: Math.round(bounded(c.get('checkpoints.maxSizeMB'), 64, 1_048_576, 2048) * 1024 * 1024),
    // `git.path` may be a list of paths to try; the first one is tried before PATH.
    gitPath:
      typeof gitPath === 'string' && gitPath ? gitPath : Array.isArray(gitPath) ? stringList(gitPath)[0] : undefined,
  };
}

/** A number setting within its schema's bounds, else its default. */
function bounded(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

/**
 * A setting from the User settings only. `acp.sessions.hide` has `application` scope, so VS Code
 * already leaves a repository's value out; asking for the user's value by name keeps it so
 * wherever a host would not (its patterns run on every row of the view).
 */
function userValue(c: vscode.WorkspaceConfiguration, key: string): unknown {
  const inspected = c.inspect(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** One settings module with defaults and one change event: `acp.*` as VS Code holds it. */
export class SettingsService extends Disposable implements SettingsSource {
  private current = read();
  private readonly emitter = this.register(new Emitter<Settings>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('acp') && !e.affectsConfiguration('git.path')) return;
        this.current = read();
        this.emitter.fire(this.current);
      }),
    );
  }

  get value(): Settings {
    return this.current;
  }
}
