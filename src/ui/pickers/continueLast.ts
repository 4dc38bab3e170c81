import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { chatTarget } from '../../chat/target';
import { pickLastSession } from '../../sessions/picks';
import type { SessionList } from '../../sessions/sessionList';
import { findListed } from '../../sessions/sessionLists';
import { pickFolder } from './agentPicker';
import type { ResumeDeps } from './resumeDeps';
import { folderPath } from '../sessionsView/sessionsTree';

/** Pages searched for the session opened last before taking it as gone. */
const LAST_SEARCH_PAGES = 20;

/**
 * "ACP: Continue Last Session": the session this window last had open in the folder while its
 * agent still lists it (or its panel is open), else the folder's most recent (the agent's first
 * when none has a time), else a new one.
 */
export async function continueLastSession(deps: ResumeDeps): Promise<void> {
  const folder = await pickFolder('Continue in which folder?');
  if (!folder) return;
  const cwd = folderPath(folder);
  const hosts = deps.agents.all;
  if (hosts.length === 0) return void vscode.commands.executeCommand('acp.addAgent');
  const candidates: { host: AgentHost; list: SessionList }[] = hosts.map((host) => ({
    host,
    list: deps.lists.get(host, cwd),
  }));
  const last = deps.chats.lastOpened(cwd);
  const owner = last && candidates.find((c) => c.host.config.id === last.agentId);
  const lastIsOpen = !!last && deps.chats.isOpen(last.agentId, last.sessionId);
  if (last && owner && !lastIsOpen) await findListed(owner.list, last.sessionId, LAST_SEARCH_PAGES);
  await Promise.all(candidates.map((c) => c.list.ensureLoaded()));
  // An open panel vouches for its session; a list that failed (or an agent that cannot list)
  // cannot say the session is gone, so the chat opens and tells. Otherwise a session the agent
  // no longer lists (deleted) gives way to the most recent.
  const id = pickLastSession(
    owner ? last.sessionId : undefined,
    candidates.flatMap((c) => c.list.items),
    () => lastIsOpen || owner?.list.state === 'error',
  );
  const found = owner && id === last?.sessionId ? owner : candidates.find((c) => id !== undefined && c.list.get(id));
  if (id && found) {
    const row = found.list.get(id);
    const agentId = found.host.config.id;
    await deps.chats.open(
      row ? chatTarget(agentId, row) : { agentId, sessionId: id, cwd },
      deps.settings.value.openMode,
    );
    return;
  }
  const host = deps.agents.default!;
  await deps.chats.open({ agentId: host.config.id, cwd }, 'new');
}
