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
  /** `acp.handoff.maxBriefingChars`: the longest briefing "Continue in Another Agent…" drafts. */
  readonly handoff: { readonly maxBriefingChars: number };
  /** `acp.sessions.hide`, compiled; `hide.errors` say what could not be used. */
  readonly hide: HideRules;
  /** `acp.terminal.shell`: which shell runs an agent's shell lines on Windows. */
  readonly terminalShell: ShellSetting;
  readonly checkpoints: CheckpointSettings;
  readonly worktrees: WorktreeSettings;
  readonly registry: RegistrySettings;
}

/** `acp.registry.url`, from the User (or Remote) settings only. */
export interface RegistrySettings {
  readonly url: string;
  /** A value a workspace or folder setting gave, which was ignored (said in the log). */
  readonly ignored?: string;
}

/** `acp.worktrees.*`: where New Session in Worktree puts worktrees and what it offers to do there. */
export interface WorktreeSettings {
  /** A folder for new worktrees; empty: `<repository>.worktrees` beside the repository. */
  readonly location: string;
  /** Untracked files copied into a new worktree (`.env`). */
  readonly copyFiles: readonly string[];
  /** A command offered, never run unasked, in a new worktree's terminal (`npm install`). */
  readonly setupCommand: string;
}

/** `acp.checkpoints.*`, with VS Code's `git.path`. */
export interface CheckpointSettings {
  readonly enabled: boolean;
  readonly maxFileBytes: number;
  /** Gitignore patterns left out besides the folder's `.gitignore` files. */
  readonly skip: readonly string[];
  readonly keepDays: number;
  readonly maxBytes: number;
  /** `git.path`: the git VS Code's Git extension runs, tried before PATH. */
  readonly gitPath?: string;
}

/** The settings now, and when they change (`ui/settings.ts` reads them from VS Code). */
export interface SettingsSource {
  readonly value: Settings;
  readonly onDidChange: Event<Settings>;
}
