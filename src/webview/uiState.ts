/**
 * The webview's own state kept by VS Code across hide/show and reloads: the draft, where the
 * user was reading, which thoughts are open. Never the transcript: the host holds the thread.
 */
import { readPanelTarget, type PanelTarget } from '../protocol/panelTarget';
import type { ScrollAnchor } from './threadView';

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

const SAVE_DELAY_MS = 300;

/** Reads what was saved, dropping anything malformed. */
export function readUiState(api: VsCodeApi): UiState {
  const raw = api.getState() as Partial<UiState> | null | undefined;
  const state: UiState = { draft: '', openThoughts: [] };
  if (!raw || typeof raw !== 'object') return state;
  if (typeof raw.draft === 'string') state.draft = raw.draft;
  if (Array.isArray(raw.openThoughts))
    state.openThoughts = raw.openThoughts.filter((n) => Number.isInteger(n) && n >= 0);
  const target = readPanelTarget(raw.target);
  if (target) state.target = target;
  const anchor = raw.anchor;
  if (anchor && Number.isInteger(anchor.index) && anchor.index >= 0 && Number.isFinite(anchor.within)) {
    state.anchor = { index: anchor.index, within: Math.max(0, anchor.within) };
  }
  return state;
}

/**
 * Saves the UI state a moment after it changes (keystrokes and scrolling come in bursts), and at
 * once when the page is hidden or goes: VS Code tears a hidden webview down, and a save still
 * waiting for its timer would lose the last keystrokes. Both events come before the page goes.
 */
export class UiStateSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly api: VsCodeApi,
    private readonly collect: () => UiState,
  ) {
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.saveNow());
    window.addEventListener('pagehide', () => this.saveNow());
  }

  saveSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  saveNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.api.setState(this.collect());
  }
}
