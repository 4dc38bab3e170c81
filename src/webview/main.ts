/**
 * The chat webview's entry (bundled to dist/webview.js). Connects to the host over the typed
 * channel, then asks for a snapshot with `ready`, as it does after every reload.
 */
import { createChannel, type MessagePort } from '../protocol/channel';
import {
  capabilitiesChangedEvent,
  changedEvent,
  focusInputEvent,
  linksChangedEvent,
  queueChangedEvent,
  revealEntryEvent,
  revealMissedEvent,
  snapshotEvent,
} from '../protocol/messages';
import { ChatApp } from './app';
import { highlighterUrl } from './highlighter';
import { readUiState, type VsCodeApi } from './uiState';

declare function acquireVsCodeApi(): VsCodeApi;

// The steps of a chat's start, in the frame's timeline (a profile shows them; the benchmarks read them).
performance.mark('acp.script');

// The first screen's script (src/chat/firstScreen.ts) took the API already when the host painted one.
const api = (window as { acpVsCodeApi?: VsCodeApi }).acpVsCodeApi ?? acquireVsCodeApi();
const port: MessagePort = {
  post: (message) => api.postMessage(message),
  onMessage: (listener) => {
    const handler = (event: MessageEvent): void => listener(event.data);
    window.addEventListener('message', handler);
    return { dispose: () => window.removeEventListener('message', handler) };
  },
};

const connection = createChannel(port);
const root = document.getElementById('app') ?? document.body;
const app = new ChatApp(root, connection, api, readUiState(api), highlighterUrl());
connection.onNotification(snapshotEvent, (params) => app.snapshot(params));
connection.onNotification(changedEvent, (params) => app.changed(params.changes));
connection.onNotification(capabilitiesChangedEvent, (params) => app.capabilitiesChanged(params));
connection.onNotification(queueChangedEvent, (params) => app.queueChanged(params));
connection.onNotification(linksChangedEvent, (params) => app.linksChanged(params.links));
connection.onNotification(focusInputEvent, () => app.focusInput());
connection.onNotification(revealEntryEvent, (params) => app.revealEntry(params.index, readWords(params.words)));
connection.onNotification(revealMissedEvent, () => app.revealMissed());
connection.listen();
app.ready();

/** Words to highlight as the host sent them: strings only, a few, each short. */
function readWords(words: unknown): string[] {
  if (!Array.isArray(words)) return [];
  return words.filter((w): w is string => typeof w === 'string' && w.length > 0 && w.length <= 200).slice(0, 8);
}
