/**
 * The webview's own state kept by VS Code across hide/show and reloads: the draft, where the
 * user was reading, which thoughts are open. Never the transcript: the host holds the thread.
 */
import type { ScrollAnchor } from './threadView';

/** Which session the panel shows: VS Code hands it back to the host's serializer after a reload. */
export interface PanelTarget {
  agentId: string;
  sessionId: string;
  cwd: string;
  title?: string;
}

export interface UiState {
  draft: string;
  anchor?: ScrollAnchor;
  openThoughts: number[];
  target?: PanelTarget;
}

/** The part of the webview API we use (`acquireVsCodeApi()`). */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Reads what was saved, dropping anything malformed. */
export function readUiState(api: VsCodeApi): UiState {
  const raw = api.getState() as Partial<UiState> | null | undefined;
  const state: UiState = { draft: '', openThoughts: [] };
  if (!raw || typeof raw !== 'object') return state;
  if (typeof raw.draft === 'string') state.draft = raw.draft;
  if (Array.isArray(raw.openThoughts)) state.openThoughts = raw.openThoughts.filter((n) => Number.isInteger(n) && n >= 0);
  const t = raw.target;
  if (t && typeof t.agentId === 'string' && typeof t.sessionId === 'string' && typeof t.cwd === 'string') {
    state.target = { agentId: t.agentId, sessionId: t.sessionId, cwd: t.cwd, ...(typeof t.title === 'string' ? { title: t.title } : {}) };
  }
  const anchor = raw.anchor;
  if (anchor && Number.isInteger(anchor.index) && anchor.index >= 0 && Number.isFinite(anchor.within)) {
    state.anchor = { index: anchor.index, within: Math.max(0, anchor.within) };
  }
  return state;
}
