import * as vscode from 'vscode';
import { sessionKey } from '../../agent/sessionKey';
import type { TouchingSession } from '../../checkpoints/touching';
import { messageOfTurn } from '../../checkpoints/touching';
import { keptSessions, type KeptLookup } from '../../library/keptSessions';
import type { Library } from '../../library/library';
import { relativeTime } from '../../sessions/time';
import { sanitizeText } from '../../sessions/title';
import type { AgentRegistry } from '../../agent/agentHost';
import type { ChatPanels } from '../chat/chatPanels';

/** The journals of checkpoints: which sessions' turns changed a file. */
export interface TouchingSource {
  sessionsTouching(file: string, folders: readonly string[]): Promise<(TouchingSession & { folder: string })[]>;
}

/** What the command reads: the agents (their names), the chats (to open one), the journals. */
export interface TouchedDeps {
  agents: AgentRegistry;
  chats: ChatPanels;
  touching: TouchingSource;
}

interface TouchedPick extends vscode.QuickPickItem {
  readonly agentId: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly at: number;
  /** The entry to scroll to, or the turn whose user message it is (found once the transcript is read). */
  entryIndex?: number;
  readonly turn?: Pick<TouchingSession, 'prompt' | 'nth'>;
  readonly sessionTitle?: string;
}

/**
 * "ACP: Sessions That Touched This File": the sessions whose turns changed the file (from the
 * checkpoints' journals: whoever wrote it, a tool call, a command or the agent's own process)
 * and the kept sessions whose tool calls read, wrote or diffed it, newest first; the chosen one
 * opens scrolled to the first message or entry that did.
 */
export async function sessionsThatTouched(deps: TouchedDeps, client: Library, uri: vscode.Uri): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const [byTools, byTurns] = await Promise.all([
    client.touched([uri.fsPath]).catch(() => []),
    deps.touching.sessionsTouching(uri.fsPath, folders).catch(() => []),
  ]);
  const picks = new Map<string, TouchedPick>();
  const agentName = (id: string) => deps.agents.get(id)?.config.name ?? id;
  // A folder's kept sessions are read once, when a session of its journal first needs them.
  const kept = new Map<string, Promise<KeptLookup | undefined>>();
  const keptIn = (folder: string): Promise<KeptLookup | undefined> => {
    let lookup = kept.get(folder);
    if (!lookup) kept.set(folder, (lookup = keptSessions(client, [folder]).catch(() => undefined)));
    return lookup;
  };
  for (const t of byTurns) {
    const owner = await ownerOf(deps, keptIn, t.sessionId, t.folder);
    if (!owner) continue;
    picks.set(sessionKey(owner.agentId, t.sessionId), {
      label: '',
      detail: sanitizeText(`${t.path}: changed in a turn`, 300),
      agentId: owner.agentId,
      sessionId: t.sessionId,
      cwd: owner.cwd,
      at: t.at,
      turn: t,
      ...(owner.title ? { sessionTitle: owner.title } : {}),
    });
  }
  for (const h of byTools) {
    const key = sessionKey(h.agentId, h.sessionId);
    if (picks.has(key)) continue;
    const ms = h.updatedAt ? Date.parse(h.updatedAt) : NaN;
    picks.set(key, {
      label: '',
      detail: sanitizeText(`${h.path}: named by a tool call`, 300),
      agentId: h.agentId,
      sessionId: h.sessionId,
      cwd: h.cwd,
      at: Number.isNaN(ms) ? 0 : ms,
      entryIndex: h.entryIndex,
      ...(h.title ? { sessionTitle: h.title } : {}),
    });
  }
  const name = vscode.workspace.asRelativePath(uri);
  if (picks.size === 0) {
    void vscode.window.showInformationMessage(
      `No session touched ${name}. Sessions are kept once opened here ("ACP: Index This Folder's Sessions" keeps them all), and checkpoints record what each turn changed from now on.`,
    );
    return;
  }
  const now = Date.now();
  const items = [...picks.values()]
    .sort((a, b) => b.at - a.at)
    .map((p) => ({
      ...p,
      label: sanitizeText(p.sessionTitle || `Session ${p.sessionId.slice(0, 8)}`, 120),
      description: [p.at ? relativeTime(p.at, now) : '', agentName(p.agentId)].filter(Boolean).join(' · '),
    }));
  const chosen = await vscode.window.showQuickPick(items, {
    title: `Sessions That Touched ${name}`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!chosen) return;
  let index = chosen.entryIndex;
  if (index === undefined && chosen.turn) {
    const kept = await client
      .transcript({ agentId: chosen.agentId, sessionId: chosen.sessionId })
      .catch(() => undefined);
    if (kept) index = messageOfTurn(kept, chosen.turn);
  }
  const panel = await deps.chats.open(
    {
      agentId: chosen.agentId,
      sessionId: chosen.sessionId,
      cwd: chosen.cwd,
      ...(chosen.sessionTitle ? { title: chosen.sessionTitle } : {}),
    },
    'auto',
  );
  if (index !== undefined) panel?.revealEntry(index);
}

/** Which agent a session of a folder's journal belongs to: the library's record, or a chat open on it. */
async function ownerOf(
  deps: TouchedDeps,
  keptIn: (folder: string) => Promise<KeptLookup | undefined>,
  sessionId: string,
  folder: string,
): Promise<{ agentId: string; cwd: string; title?: string } | undefined> {
  const open = deps.chats.all.find((c) => c.session.sessionId === sessionId);
  if (open) return { agentId: open.session.target.agentId, cwd: open.session.target.cwd, title: open.panel.title };
  const kept = (await keptIn(folder))?.(sessionId);
  return kept && { agentId: kept.agentId, cwd: kept.cwd, ...(kept.title ? { title: kept.title } : {}) };
}
