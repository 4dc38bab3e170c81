import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import { parseAgents, type ConfigProblem } from '../agent/config';
import { parseMcpServers } from '../agent/mcp';
import { SHELL_SETTINGS, type ShellSetting } from '../agent/shells';
import type { AgentConfig } from '../agent/types';
import type { TraceLevel } from '../agent/log';
import type { OpenMode } from '../chat/target';
import { compileHideRules, type HideRules } from '../sessions/hide';
import { Emitter } from '../base/event';
import { Disposable } from '../base/lifecycle';
import { machineSetting } from './agentSettings';

/** The extension's settings, typed and read once per change. */
export interface Settings {
  readonly agents: readonly AgentConfig[];
  readonly problems: readonly ConfigProblem[];
  readonly defaultAgent: string;
  readonly openMode: OpenMode;
  readonly trace: TraceLevel;
  /** `acp.mcpServers`, validated (each agent may replace entries by name). */
  readonly mcpServers: readonly McpServer[];
  /** `acp.confirmWritesTo`: more files whose writes by an agent need the user's confirmation. */
  readonly confirmWritesTo: readonly string[];
  /** `acp.library.enabled` and `acp.library.maxSizeMB` (in bytes). */
  readonly library: { readonly enabled: boolean; readonly maxBytes: number };
  /** `acp.sessions.hide`, compiled; `hide.errors` say what could not be used. */
  readonly hide: HideRules;
  /** `acp.terminal.shell`: which shell runs an agent's shell lines on Windows. */
  readonly terminalShell: ShellSetting;
}

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
  const hide = compileHideRules(c.get('sessions.hide'));
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
    // Machine scope, like the agents: it chooses a program to run.
    terminalShell: SHELL_SETTINGS.find((v) => v === machineSetting('terminal.shell')) ?? 'auto',
  };
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** One settings module with defaults and one change event. */
export class SettingsService extends Disposable {
  private current = read();
  private readonly emitter = this.register(new Emitter<Settings>());
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('acp')) return;
        this.current = read();
        this.emitter.fire(this.current);
      }),
    );
  }

  get value(): Settings {
    return this.current;
  }
}
