import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../../agent/agentHost';
import { chatTarget } from '../../chat/target';
import { indexSessions } from '../../library/indexer';
import { transcriptMarkdown } from '../../library/markdown';
import type { LibraryService } from '../../library/service';
import type { SessionLists } from '../../sessions/sessionLists';
import { pickFolder } from '../pickers/agentPicker';
import type { ChatPanels } from '../chat/chatPanels';
import type { Commands } from '../commands';
import { TranscriptKeeper } from '../../app/transcriptKeeper';
import { folderPath, type TreeNode } from '../sessionsView/sessionsTree';
import { sessionsThatTouched, type TouchingSource } from './touchedFile';

export interface LibraryCommandDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  library: LibraryService;
  keeper: TranscriptKeeper;
  /** The checkpoints' journals, for the sessions whose turns changed a file. */
  touching: TouchingSource;
  /** Asks before a destructive action; tests replace it (payload mode skips modal dialogs). */
  confirm: (message: string, action: string) => Thenable<boolean>;
}

/** The library is needed for this command: says why it is not there. */
function clientOrSay(deps: LibraryCommandDeps) {
  const client = deps.library.get();
  if (!client)
    void vscode.window.showWarningMessage(
      deps.library.failure ??
        'The session library is turned off ("acp.library.enabled"): turn it on to search, reopen and export kept sessions.',
    );
  return client;
}

/** "ACP: Clear Session Library": forgets every kept session (the agents keep theirs). */
export async function clearLibrary(deps: LibraryCommandDeps): Promise<void> {
  if (!clientOrSay(deps)) return;
  const ok = await deps.confirm(
    'Clear the session library? Every kept transcript is forgotten; the agents keep their sessions.',
    'Clear',
  );
  if (!ok) return;
  const { damagedCopies } = await deps.library.clear();
  void vscode.window.showInformationMessage(
    damagedCopies
      ? `The session library is empty; the ${damagedCopies === 1 ? 'copy' : `${damagedCopies} copies`} of a damaged library set aside went too.`
      : 'The session library is empty.',
  );
}

/**
 * "ACP: Index This Folder's Sessions": loads each of the folder's sessions in the background so
 * search covers them all; one at a time, paused while a chat is busy, cancellable.
 */
export async function indexFolder(deps: LibraryCommandDeps, folder?: vscode.WorkspaceFolder): Promise<void> {
  const client = clientOrSay(deps);
  if (!client) return;
  folder ??= await pickFolder("Index which folder's sessions?");
  if (!folder) return;
  const cwd = folderPath(folder);
  const ok = await deps.confirm(
    `Load every session of ${folder.name} in the background so its content can be searched? ` +
      'Some agents (Claude Code) mark a loaded session as updated: their order by time changes.',
    'Index',
  );
  if (!ok) return;
  const results: string[] = [];
  let cancelled = false;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Indexing ${folder.name}'s sessions`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      for (const host of deps.agents.all) {
        if (abort.signal.aborted) break;
        const sessions = await listAll(deps, host, cwd, abort.signal);
        let last = 0;
        const result = await indexSessions({
          sessions: sessions.map((s) => ({ sessionId: s.sessionId, updatedAt: s.updatedAt })),
          kept: (sessionId) => client.session({ agentId: host.config.id, sessionId }),
          load: async (sessionId, signal) => {
            const info = sessions.find((s) => s.sessionId === sessionId)!;
            if (deps.chats.isOpen(host.config.id, sessionId)) return; // its chat keeps it
            await deps.chats.loadInBackground(chatTarget(host.config.id, info), signal);
          },
          busy: () => TranscriptKeeper.busy(deps.chats.all.map((c) => c.session)),
          progress: ({ done, total, waiting }) => {
            const pct = total ? (done / total) * 100 : 100;
            progress.report({
              increment: pct - last,
              message: `${host.config.name}: ${done} of ${total}${waiting ? ' (waiting for a busy chat)' : ''}`,
            });
            last = pct;
          },
          signal: abort.signal,
        });
        results.push(
          `${host.config.name}: ${result.indexed} indexed, ${result.skipped} already kept` +
            (result.failed ? `, ${result.failed} failed` : '') +
            (result.stoppedBecause ? ` (stopped: ${result.stoppedBecause})` : ''),
        );
        if (result.cancelled) cancelled = true;
        if (result.cancelled) break;
      }
    },
  );
  const how = cancelled ? 'Stopped indexing' : 'Indexed';
  void vscode.window.showInformationMessage(`${how} ${folder.name}'s sessions. ${results.join('; ')}`);
}

/**
 * Every session the agent lists for a folder now, through the shared list (the view sees them
 * too). Read afresh: a session's time in rows read earlier may predate a load that moved it, and
 * a kept session would then look changed and be loaded again.
 */
async function listAll(deps: LibraryCommandDeps, host: AgentHost, cwd: string, signal: AbortSignal) {
  const list = deps.lists.get(host, cwd);
  await list.loadFirstPage();
  while (list.nextCursor !== undefined && list.state !== 'error' && !signal.aborted) await list.loadMore();
  return list.items;
}

/** "ACP: Sessions That Touched This File" on the file given, or the active editor's. */
async function touchedFile(deps: LibraryCommandDeps, uri?: vscode.Uri): Promise<void> {
  const client = clientOrSay(deps);
  if (!client) return;
  uri ??= vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    void vscode.window.showInformationMessage('Open a file first: sessions are found by the files they touched.');
    return;
  }
  await sessionsThatTouched(deps, client, uri);
}

/**
 * "Export Session as Markdown": the whole transcript in a new untitled Markdown editor. From a
 * chat, what it shows; from a row, the kept copy, or a load from the agent when it is not kept.
 */
export async function exportMarkdown(deps: LibraryCommandDeps, node?: TreeNode): Promise<void> {
  let header: Parameters<typeof transcriptMarkdown>[0];
  let entries;
  if (node?.type === 'session') {
    const key = { agentId: node.host.config.id, sessionId: node.row.sessionId };
    const open = deps.chats.get(key.agentId, key.sessionId);
    const client = deps.library.get();
    const keptSession = client && (await client.session(key).catch(() => undefined));
    if (open && open.session.history !== 'resumed') entries = open.session.thread.entries;
    else if (keptSession?.complete) entries = await client!.transcript(key);
    if (!entries)
      entries = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Loading the session from the agent…' },
        async () => (await deps.chats.loadInBackground(chatTarget(key.agentId, node.row))).thread.entries,
      );
    header = { sessionId: key.sessionId, cwd: node.row.cwd, agentName: node.host.config.name };
    if (node.row.title) header.title = node.row.title;
    if (node.row.updatedAt) header.updatedAt = node.row.updatedAt;
  } else {
    const chat = deps.chats.active ?? deps.chats.all[0];
    if (!chat?.session.sessionId) {
      void vscode.window.showInformationMessage('Open a session chat first: its transcript is what is exported.');
      return;
    }
    entries = chat.session.thread.entries;
    header = {
      sessionId: chat.session.sessionId,
      cwd: chat.session.target.cwd,
      agentName: chat.session.capabilities().agentName,
    };
    const title = chat.session.thread.meta.title;
    if (title) header.title = title;
  }
  const doc = await vscode.workspace.openTextDocument({
    language: 'markdown',
    content: await transcriptMarkdown(header, entries ?? []),
  });
  await vscode.window.showTextDocument(doc, { preview: false });
}

export function libraryCommands(deps: LibraryCommandDeps): Commands {
  return {
    'acp.library.clear': () => clearLibrary(deps),
    'acp.library.indexFolder': (node) =>
      indexFolder(
        deps,
        (node as TreeNode | undefined)?.type === 'folder'
          ? (node as { folder: vscode.WorkspaceFolder }).folder
          : undefined,
      ),
    'acp.library.sessionsThatTouched': (uri) => touchedFile(deps, uri instanceof vscode.Uri ? uri : undefined),
    'acp.exportMarkdown': (node) => exportMarkdown(deps, node as TreeNode | undefined),
  };
}
