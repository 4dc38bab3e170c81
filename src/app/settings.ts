import type { McpServer } from '@agentclientprotocol/sdk';
import type { ConfigProblem } from '../agent/config';
import type { TraceLevel } from '../agent/log';
import type { ShellSetting } from '../agent/shells';
import type { AgentConfig } from '../agent/types';
import type { Event } from '../base/event';
import type { OpenMode } from '../chat/target';
import type { HideRules } from '../sessions/hide';

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

/** The settings now, and when they change (`ui/settings.ts` reads them from VS Code). */
export interface SettingsSource {
  readonly value: Settings;
  readonly onDidChange: Event<Settings>;
}
