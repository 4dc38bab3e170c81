/**
 * "ACP: Continue in Another Agent…": the user picks an agent; a new chat with it opens in the
 * session's folder (or worktree) with a briefing drafted from the kept transcript in its
 * composer, sent only when the user sends it. The two sessions then link to each other: each
 * chat's header names the other, and the library keeps the link across reloads.
 */
import * as vscode from 'vscode';
import type { AgentHost } from '../../agent/agentHost';
import { Disposable } from '../../base/lifecycle';
import { chatTarget } from '../../chat/target';
import { draftHandoff, linksOf, linkText, linkViews, type LinkNames } from '../../app/handoff';
import type { SettingsSource } from '../../app/settings';
import type { LibraryService } from '../../library/service';
import type { SessionKey } from '../../library/types';
import { MAX_TITLE, sanitizeText } from '../../sessions/title';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import { noSuchAgent } from '../messages';
import { sessionTargets, type SessionTarget, type TargetDeps } from '../manage/sessionTargets';
import type { ChatPanel } from './chatPanel';

export interface HandoffDeps extends TargetDeps {
  library: LibraryService;
  settings: SettingsSource;
  /** Asks before opening a chat with nothing kept to brief it; tests replace it. */
  confirm: Confirm;
  /** Writes what the open chats show to the library, so the briefing holds their last turns. */
  keeper?: { flush(): Promise<void> };
}

export function handoffCommands(deps: HandoffDeps): Commands {
  return {
    // `agentId`: the agent to continue in, without asking (what tests and links pass).
    'acp.continueInAnotherAgent': (node, agentId) =>
      continueInAnotherAgent(deps, node, typeof agentId === 'string' ? agentId : undefined),
    'acp.openLinkedSession': (agentId, sessionId) =>
      typeof agentId === 'string' && typeof sessionId === 'string'
        ? openLinked(deps, { agentId, sessionId })
        : undefined,
  };
}

/** Opens the new chat with the briefing as its draft; resolves with it, or undefined when nothing opened. */
export async function continueInAnotherAgent(
  deps: HandoffDeps,
  node?: unknown,
  agentId?: string,
): Promise<ChatPanel | undefined> {
  const [source] = await sessionTargets(deps, node, undefined, 'Continue which session in another agent?');
  if (!source) return undefined;
  const picked = agentId === undefined ? await pickTarget(deps, source.host) : deps.agents.get(agentId);
  if (agentId !== undefined && !picked) return notConfigured(agentId);
  if (!picked) return undefined;
  const from = { agentId: source.host.config.id, sessionId: source.sessionId };
  const title = titleOf(deps, source);
  await deps.keeper?.flush();
  const draft = await draftHandoff(
    deps.library,
    from,
    { agentName: source.host.config.name, title, sessionId: source.sessionId, cwd: source.cwd },
    deps.settings.value.handoff.maxBriefingChars,
  );
  if (!draft.kept) {
    const go = await deps.confirm(
      `ACP: "${title}" cannot be briefed: ${draft.why}.`,
      'Open with a One-Line Briefing',
      `A chat with ${picked.config.name} opens in the same folder with one line naming the session in its message box; nothing is sent until you send it.`,
    );
    if (!go) return undefined;
  }
  // Asked again: the agents may have changed while the user answered.
  const target = deps.agents.get(picked.config.id);
  if (!target) return notConfigured(picked.config.id);
  const chat = await deps.chats.open(
    { agentId: target.config.id, cwd: source.cwd, additionalDirectories: source.row?.additionalDirectories },
    'new',
    draft.text,
  );
  if (!chat) return undefined;
  const created = (sessionId: string) => {
    void link(deps, from, { agentId: target.config.id, sessionId });
    // The agent names the new session later (often after the first prompt): the old chat's link follows.
    let shown = chat.panel.title;
    chat.register(
      chat.session.thread.onDidChange((changes) => {
        if (!changes.some((c) => c.kind === 'metaChanged') || chat.panel.title === shown) return;
        shown = chat.panel.title;
        void showLinks(deps, from);
      }),
    );
  };
  if (chat.session.sessionId) created(chat.session.sessionId);
  else {
    const once = chat.register(
      chat.session.onDidCreateSession((id) => {
        once.dispose();
        created(id);
      }),
    );
  }
  return chat;
}

/** The configured agents, those other than the session's own first (its own last, marked). */
async function pickTarget(deps: HandoffDeps, own: AgentHost): Promise<AgentHost | undefined> {
  const others = deps.agents.all.filter((h) => h !== own);
  const items = [...others, ...(deps.agents.get(own.config.id) ? [own] : [])].map((host) => ({
    label: host.config.name,
    description: host === own ? "this session's agent" : host.state.kind === 'ready' ? 'running' : undefined,
    host,
  }));
  const placeHolder = 'Continue in which agent? It gets a briefing to edit before anything is sent.';
  // Run from a chat's title bar, the chat may take the keyboard back as its page settles: the
  // question stays until it is answered or dismissed with Escape.
  return (await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.host;
}

function notConfigured(agentId: string): undefined {
  void vscode.window.showErrorMessage(
    `ACP: no agent "${agentId}" is configured any more: nothing was sent, and the session is as it was.`,
  );
  return undefined;
}

/** The session's name as the Sessions view shows it, else its open chat's (whole: a tab's title is cut short). */
function titleOf(deps: HandoffDeps, t: SessionTarget): string {
  if (t.row) return deps.decor.name(t.host.config.id, t.row).label;
  const session = deps.chats.get(t.host.config.id, t.sessionId)?.session;
  const raw = session?.thread.meta.name ?? session?.thread.meta.title ?? session?.target.title;
  return raw ? sanitizeText(raw, MAX_TITLE) : '';
}

/** Keeps the link, then shows it in both chats where they are open. */
async function link(deps: HandoffDeps, from: SessionKey, to: SessionKey): Promise<void> {
  await deps.library
    .get()
    ?.link({ from, to })
    .catch(() => undefined);
  await Promise.all([showLinks(deps, from), showLinks(deps, to)]);
}

type LinkDeps = Pick<HandoffDeps, 'agents' | 'chats' | 'library'>;

function names(deps: LinkDeps): LinkNames {
  return {
    agentName: (id) => deps.agents.get(id)?.config.name ?? id,
    openTitle: (key) => deps.chats.get(key.agentId, key.sessionId)?.panel.title,
  };
}

/** Sets the header links of the chat of `key`, when it is open. */
async function showLinks(deps: LinkDeps, key: SessionKey): Promise<void> {
  if (!deps.chats.get(key.agentId, key.sessionId)) return;
  const links = await linksOf(deps.library, key);
  deps.chats.get(key.agentId, key.sessionId)?.setLinks(linkViews(links, names(deps)));
}

/** A header link's session: revealed when open, else opened in the folder the library keeps for it. */
async function openLinked(deps: HandoffDeps, key: SessionKey): Promise<void> {
  const open = deps.chats.get(key.agentId, key.sessionId);
  if (open) return open.panel.reveal();
  const kept = await deps.library
    .get()
    ?.session(key)
    .catch(() => undefined);
  if (!kept) {
    void vscode.window.showErrorMessage('ACP: the session library keeps nothing of that session, not even its folder.');
    return;
  }
  if (!deps.agents.get(key.agentId)) return noSuchAgent(key.agentId);
  await deps.chats.open(
    chatTarget(key.agentId, { ...key, cwd: kept.cwd, title: kept.title }),
    deps.settings.value.openMode,
  );
}

/** Every chat that opens shows the sessions it was continued from or in. */
export class HandoffLinks extends Disposable {
  constructor(deps: LinkDeps) {
    super();
    this.register(deps.chats.onDidChangeOpen((key) => void showLinks(deps, key)));
  }
}

/** The tooltip's lines on a row's links ("Continued in Codex — Cart totals"), or undefined. */
export async function handoffNote(deps: LinkDeps, key: SessionKey): Promise<string | undefined> {
  const links = await linksOf(deps.library, key);
  return links.length ? links.map((l) => linkText(l, names(deps))).join('\n') : undefined;
}
