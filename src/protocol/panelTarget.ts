/**
 * Which session a chat panel shows, as the webview saves it in its state and VS Code hands it
 * back to the host's serializer after a window reload. Both sides read it here, so what one
 * writes the other reads. Shared: no vscode, no DOM, no node.
 */
import type { ChatCapabilities } from './messages';

export interface PanelTarget {
  agentId: string;
  sessionId: string;
  cwd: string;
  /** The further roots the session was opened with; a load after the reload sends them again. */
  additionalDirectories?: string[];
  title?: string;
  /** Shown read-only from the library, and why: after a reload too, nothing is sent to the agent. */
  readOnly?: string;
}

/** Caps what a saved state can hand back: it is read after a reload from storage. */
const MAX_DIRECTORIES = 64;

/** What the webview saves for its panel, once the session has an id. */
export function panelTargetOf(caps: ChatCapabilities, title: string | undefined): PanelTarget | undefined {
  if (!caps.sessionId || !caps.agentId) return undefined;
  const dirs = caps.additionalDirectories ?? [];
  return {
    agentId: caps.agentId,
    sessionId: caps.sessionId,
    cwd: caps.cwd,
    ...(dirs.length ? { additionalDirectories: dirs.slice() } : {}),
    ...(title ? { title } : {}),
    ...(caps.readOnly ? { readOnly: caps.readOnly } : {}),
  };
}

/** Reads a saved target, dropping anything malformed. */
export function readPanelTarget(raw: unknown): PanelTarget | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const t = raw as Record<string, unknown>;
  if (typeof t.agentId !== 'string' || typeof t.sessionId !== 'string' || typeof t.cwd !== 'string') return undefined;
  const dirs = Array.isArray(t.additionalDirectories)
    ? t.additionalDirectories
        .filter((d): d is string => typeof d === 'string' && d.length > 0)
        .slice(0, MAX_DIRECTORIES)
    : [];
  return {
    agentId: t.agentId,
    sessionId: t.sessionId,
    cwd: t.cwd,
    ...(dirs.length ? { additionalDirectories: dirs } : {}),
    ...(typeof t.title === 'string' ? { title: t.title } : {}),
    ...(typeof t.readOnly === 'string' && t.readOnly ? { readOnly: t.readOnly.slice(0, 1000) } : {}),
  };
}
