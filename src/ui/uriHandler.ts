import * as vscode from 'vscode';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { AgentHost, AgentRegistry } from '../agent/agentHost';
import { samePath } from '../platform/pathKey';
import { answerNoAgent } from './agents/agentSettings';
import type { ChatPanels } from './chat/chatPanels';
import { badLink, linkedSessionNotFound, showError, type Confirm } from './messages';
import { chatTarget } from '../chat/target';
import { findListed, type SessionLists } from '../sessions/sessionLists';
import { folderPath } from './sessionsView/sessionsTree';
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
  confirm: Confirm;
}

interface Found {
  host: AgentHost;
  /** As the agent listed it; the chat sends only the additional directories inside the window's folders. */
  session: SessionInfo;
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
      const row = await findListed(deps.lists.get(host, folder), sessionId, MAX_PAGES);
      if (row) return { host, session: row };
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
      if (hit) return { host, session: hit };
      if (!page.nextCursor || page.nextCursor === cursor) break;
      cursor = page.nextCursor;
    }
  }
  return undefined;
}

/** Opens the session a link names; asks first when its cwd is not a folder of this window. */
export async function handleUri(deps: LinkDeps, uri: vscode.Uri): Promise<void> {
  if (uri.path !== '/resume') {
    badLink(`this link is not one the extension knows (${uri.path.slice(0, 80)}).`);
    return;
  }
  const q = new URLSearchParams(uri.query);
  const sessionId = q.get('session')?.trim();
  if (!sessionId || sessionId.length > 1024) {
    badLink('the link names no session.');
    return;
  }
  // Nothing set up: the same answer as every command that needs an agent.
  if (deps.agents.all.length === 0) return void answerNoAgent();
  const agentId = q.get('agent') ?? undefined;
  const hosts = agentId ? [deps.agents.get(agentId)].filter((h): h is AgentHost => !!h) : deps.agents.all;
  if (hosts.length === 0) {
    badLink(`the link names the agent "${agentId}", which is not set up in this window.`);
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
      linkedSessionNotFound(sessionId);
      return;
    }
    const { cwd } = found.session;
    if (!windowFolders.some((f) => samePath(f, cwd))) {
      const ok = await deps.confirm(
        `The session belongs to ${cwd}, which is not a folder of this window. Open it here anyway?`,
        'Open',
      );
      if (!ok) return;
    }
    await deps.chats.open(chatTarget(found.host.config.id, found.session), deps.settings.value.openMode);
  } catch (e) {
    await showError('ACP: could not open the link', e);
  }
}
