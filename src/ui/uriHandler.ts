import * as vscode from 'vscode';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { samePath } from '../sessions/paths';
import { answerNoAgent } from './agentSettings';
import type { ChatPanels } from './chatPanels';
import type { CommandDeps } from './commands';
import { showError } from './messages';
import type { SessionLists } from './sessionLists';
import { folderPath } from './sessionsTree';
import type { SettingsService } from './settings';

const EXTENSION_ID = 'acp-tools.acp-client';
/** How far a link search pages through one agent's sessions before saying the id is unknown. */
const MAX_PAGES = 200;

/** A link that opens a session: `vscode://acp-tools.acp-client/resume?session=<id>[&agent=][&folder=]`. */
export function sessionLink(sessionId: string, agentId: string, folder?: string): string {
  const q = new URLSearchParams({ session: sessionId, agent: agentId, ...(folder ? { folder } : {}) });
  return `${vscode.env.uriScheme}://${EXTENSION_ID}/resume?${q.toString()}`;
}

export interface LinkDeps {
  agents: AgentRegistry;
  lists: SessionLists;
  chats: ChatPanels;
  settings: SettingsService;
  confirm: CommandDeps['confirm'];
}

interface Found {
  host: AgentHost;
  cwd: string;
  /** As the session reported them; the chat sends only those inside the window's folders. */
  additionalDirectories?: readonly string[];
  title?: string;
}

/** Looks for a session id in the folders' lists first, then in the agent's whole list. */
async function find(
  deps: LinkDeps,
  sessionId: string,
  hosts: AgentHost[],
  folders: string[],
): Promise<Found | undefined> {
  for (const host of hosts) {
    for (const folder of folders) {
      const list = deps.lists.get(host, folder);
      await list.ensureLoaded();
      for (
        let i = 0;
        !list.get(sessionId) && list.nextCursor !== undefined && list.state !== 'error' && i < MAX_PAGES;
        i++
      )
        await list.loadMore();
      const row = list.get(sessionId);
      if (row)
        return { host, cwd: row.cwd, additionalDirectories: row.additionalDirectories, title: row.title ?? undefined };
    }
  }
  // Not in any folder of this window: ask each agent's unfiltered list, to learn its cwd.
  for (const host of hosts) {
    const c = await host.connect().catch(() => undefined);
    if (!c?.features.list) continue;
    let cursor: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await c.listSessions(cursor ? { cursor } : {});
      const hit = page.sessions.find((s) => s.sessionId === sessionId);
      if (hit)
        return {
          host,
          cwd: hit.cwd,
          additionalDirectories: hit.additionalDirectories ?? undefined,
          title: hit.title ?? undefined,
        };
      if (!page.nextCursor || page.nextCursor === cursor) break;
      cursor = page.nextCursor;
    }
  }
  return undefined;
}

/** Opens the session a link names; asks first when its cwd is not a folder of this window. */
export async function handleUri(deps: LinkDeps, uri: vscode.Uri): Promise<void> {
  if (uri.path !== '/resume') {
    void vscode.window.showErrorMessage(`ACP: this link is not one the extension knows (${uri.path.slice(0, 80)}).`);
    return;
  }
  const q = new URLSearchParams(uri.query);
  const sessionId = q.get('session')?.trim();
  if (!sessionId || sessionId.length > 1024) {
    void vscode.window.showErrorMessage('ACP: the link names no session.');
    return;
  }
  // Nothing set up: the same answer as every command that needs an agent.
  if (deps.agents.all.length === 0) return void answerNoAgent();
  const agentId = q.get('agent') ?? undefined;
  const hosts = agentId ? [deps.agents.get(agentId)].filter((h): h is AgentHost => !!h) : deps.agents.all;
  if (hosts.length === 0) {
    void vscode.window.showErrorMessage(
      `ACP: the link names the agent "${agentId}", which is not set up in this window.`,
    );
    return;
  }
  const windowFolders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map(folderPath);
  const folderHint = q.get('folder') ?? undefined;
  const folders = folderHint
    ? [
        ...windowFolders.filter((f) => samePath(f, folderHint)),
        ...windowFolders.filter((f) => !samePath(f, folderHint)),
      ]
    : windowFolders;
  try {
    const found = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'ACP: looking for the session…' },
      () => find(deps, sessionId, hosts, folders),
    );
    if (!found) {
      void vscode.window.showErrorMessage(`ACP: no configured agent knows the session "${sessionId.slice(0, 64)}".`);
      return;
    }
    if (!windowFolders.some((f) => samePath(f, found.cwd))) {
      const ok = await deps.confirm(
        `The session belongs to ${found.cwd}, which is not a folder of this window. Open it here anyway?`,
        'Open',
      );
      if (!ok) return;
    }
    await deps.chats.open(
      {
        agentId: found.host.config.id,
        sessionId,
        cwd: found.cwd,
        additionalDirectories: found.additionalDirectories,
        title: found.title,
      },
      deps.settings.value.openMode,
    );
  } catch (e) {
    await showError('ACP: could not open the link', e);
  }
}
