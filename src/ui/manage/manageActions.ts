import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentConnection } from '../../agent/connection';
import { forkSession, setSessionArchived, setSessionTitle } from '../../agent/manage';
import type { ChatSession } from '../../chat/chatSession';
import { chatTarget } from '../../chat/target';
import { sanitizeText } from '../../sessions/title';
import { noNameToReset } from '../messages';
import { sessionTargets, type SessionTarget, type TargetDeps } from './sessionTargets';

export interface ManageDeps extends TargetDeps {
  /** MCP servers for a fork, as for every new session. */
  mcpServers: (c: AgentConnection) => McpServer[] | Promise<McpServer[]>;
  /** Asks for a name; tests replace it (an input box cannot be typed into from the API). */
  askName: (current: string, agentTitle: string | undefined) => Thenable<string | undefined>;
  /** Asks what to do with a turn running in a chat being archived; tests replace it. */
  askRunning: (label: string) => Thenable<'stop' | 'wait' | undefined>;
}

export const defaultAskName = (current: string, agentTitle: string | undefined): Thenable<string | undefined> =>
  vscode.window.showInputBox({
    title: 'Rename Session',
    value: current,
    valueSelection: [0, current.length],
    // Run from the palette over a chat, the box opens as the palette hands the keyboard back to
    // the chat; on a busy machine the chat takes it after the box is up, which would close it.
    ignoreFocusOut: true,
    prompt:
      agentTitle && agentTitle !== current
        ? `The agent's title: ${sanitizeText(agentTitle, 120)}`
        : 'A name for the session',
    validateInput: (v) =>
      v.trim() ? undefined : 'A name cannot be empty; Reset Name gives the session its own title back.',
  });

export const defaultAskRunning = async (label: string): Promise<'stop' | 'wait' | undefined> => {
  const stop = 'Stop the Turn and Archive';
  const wait = 'Archive When It Ends';
  const choice = await vscode.window.showWarningMessage(`“${label}” is running a turn.`, { modal: true }, stop, wait);
  return choice === stop ? 'stop' : choice === wait ? 'wait' : undefined;
};

/** What a session is called now, and the agent's own title (cleaned). */
function namesOf(deps: ManageDeps, t: SessionTarget): { shown: string; agentTitle: string | undefined } {
  const agentId = t.host.config.id;
  const chat = deps.chats.get(agentId, t.sessionId);
  const raw = t.row?.title ?? chat?.session.thread.meta.title;
  const agentTitle = typeof raw === 'string' && sanitizeText(raw) ? sanitizeText(raw) : undefined;
  const shown = deps.decor.marks.nameOf(agentId, t.sessionId) ?? agentTitle ?? '';
  return { shown, agentTitle };
}

/** Tells the lists of a new title at once, as a `session_info_update` would. */
function titled(deps: ManageDeps, t: SessionTarget, title: string): void {
  for (const list of deps.lists.listsOf(t.host.config.id)) list.applyInfoUpdate(t.sessionId, { title });
}

/**
 * Rename: the agent stores the name where it can (`session/set_title`) and answers with what
 * it stored; the name is also kept here, so a later title from the agent does not silently
 * replace it. Elsewhere the name is the client's own.
 */
export async function rename(deps: ManageDeps, node?: unknown): Promise<void> {
  const [t] = await sessionTargets(deps, node, undefined, 'Rename which session?');
  if (!t) return;
  const { shown, agentTitle } = namesOf(deps, t);
  const value = await deps.askName(shown, agentTitle);
  if (value === undefined || !value.trim()) return;
  const agentId = t.host.config.id;
  const c = await t.host.connect();
  if (c.features.title) {
    const stored = await setSessionTitle(c, t.sessionId, value);
    deps.decor.marks.setName(agentId, t.sessionId, stored, agentTitle);
    titled(deps, t, stored);
  } else {
    deps.decor.marks.setName(agentId, t.sessionId, value);
  }
}

/** Reset Name: the session shows the agent's title again (given back to an agent that stores titles). */
export async function resetName(deps: ManageDeps, node?: unknown): Promise<void> {
  const [t] = await sessionTargets(deps, node, undefined, 'Reset the name of which session?');
  if (!t) return;
  const agentId = t.host.config.id;
  const entry = deps.decor.marks.nameEntry(agentId, t.sessionId);
  if (!entry) {
    noNameToReset();
    return;
  }
  if (entry.before !== undefined) {
    const c = await t.host.connect();
    if (c.features.title) titled(deps, t, await setSessionTitle(c, t.sessionId, entry.before));
  }
  deps.decor.marks.resetName(agentId, t.sessionId);
}

/** Resolves when the chat's turn has ended (or the chat has closed). */
function turnEnded(session: ChatSession): Promise<void> {
  return new Promise((resolve) => {
    if (!session.isPrompting || session.isDisposed) return resolve();
    const done = () => {
      if (session.isPrompting && !session.isDisposed) return;
      a.dispose();
      b.dispose();
      resolve();
    };
    const a = session.onDidChangeCapabilities(done);
    const b = session.thread.onDidChange(done);
  });
}

/**
 * Archive (rows with multi-selection, the chat's title bar, the palette): through the agent
 * where it archives (`session/archive`), else on this side. An open chat closes: after its
 * running turn ends, or once the user chose to stop the turn; a dismissed question archives
 * nothing of that session.
 */
export async function archive(deps: ManageDeps, node?: unknown, selected?: unknown): Promise<void> {
  const targets = await sessionTargets(deps, node, selected, 'Archive which session?');
  for (const t of targets) {
    const agentId = t.host.config.id;
    const chat = deps.chats.get(agentId, t.sessionId);
    if (chat?.session.isPrompting) {
      const how = await deps.askRunning(namesOf(deps, t).shown || t.sessionId);
      if (!how) continue;
      if (how === 'stop') await chat.session.cancel();
      await turnEnded(chat.session);
    }
    const c = await t.host.connect();
    if (c.features.archive) {
      await setSessionArchived(c, t.sessionId, true);
      deps.lists.removeSession(agentId, t.sessionId);
    } else {
      deps.decor.marks.archiveSessions(agentId, [
        t.row ?? { sessionId: t.sessionId, cwd: t.cwd, title: namesOf(deps, t).agentTitle ?? null },
      ]);
    }
    deps.chats.get(agentId, t.sessionId)?.panel.dispose();
  }
}

/** Unarchive a session (from Show Archived Sessions): through the agent that archived it, or on this side. */
export async function unarchive(deps: ManageDeps, target: SessionTarget): Promise<void> {
  const agentId = target.host.config.id;
  const c = await target.host.connect();
  if (c.features.archive) {
    await setSessionArchived(c, target.sessionId, false);
    // Back in the agent's list where its time puts it: read the list again.
    for (const list of deps.lists.listsOf(agentId)) if (list.loaded) void list.refresh();
  }
  deps.decor.marks.unarchiveSessions(agentId, [target.sessionId]);
}

/**
 * Fork: a new session from the source's history (`session/fork`), listed at once and opened
 * in a chat that shows the history (loaded; resumed where the agent cannot load).
 */
export async function fork(deps: ManageDeps, node?: unknown): Promise<void> {
  const [t] = await sessionTargets(deps, node, undefined, 'Fork which session?');
  if (!t) return;
  const c = await t.host.connect();
  const agentId = t.host.config.id;
  const forked = await forkSession(c, { sessionId: t.sessionId, cwd: t.cwd, mcpServers: await deps.mcpServers(c) });
  const title = namesOf(deps, t).agentTitle ?? null;
  const info = { sessionId: forked.sessionId, cwd: t.cwd, title, updatedAt: new Date().toISOString() };
  deps.decor.markCreated(agentId, forked.sessionId);
  deps.lists.addCreated(agentId, info);
  const target = chatTarget(agentId, { ...info, additionalDirectories: t.row?.additionalDirectories });
  await deps.chats.open(target, c.features.load ? 'load' : 'resume');
}
