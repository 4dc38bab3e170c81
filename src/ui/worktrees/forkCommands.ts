import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentConnection } from '../../agent/connection';
import { forkSession } from '../../agent/manage';
import { normalizePath } from '../../platform/pathKey';
import type { CheckpointKeeper } from '../../app/checkpointKeeper';
import type { WorktreeSettings } from '../../app/settings';
import type { WorktreeRows } from '../../app/worktreeRows';
import { chatTarget } from '../../chat/target';
import type { Materialized } from '../../checkpoints/materialize';
import { WorktreeError } from '../../worktrees/errors';
import { defaultBranchName } from '../../worktrees/paths';
import type { Created } from '../../worktrees/worktrees';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import { isSessionNode, sessionTargets, type SessionTarget, type TargetDeps } from '../manage/sessionTargets';
import { carriedSkipped, forkCarried, forkFromHereDetail, noFork, trustedForWorktrees } from './worktreeMessages';

export interface ForkCommandDeps extends TargetDeps {
  rows: WorktreeRows;
  keeper: CheckpointKeeper;
  settings: { readonly value: { readonly worktrees: WorktreeSettings } };
  mcpServers: (c: AgentConnection) => McpServer[] | Promise<McpServer[]>;
  /** Asks before the fork (modal); tests replace it. */
  confirm: Confirm;
}

/** What a fork may be given instead of asking (a test): the branch, else an input box asks; the session. */
export interface ForkArgs {
  branch?: string;
  agentId?: string;
  sessionId?: string;
  cwd?: string;
}

/** A fork made: its worktree (none for a fork in place) and the new session. */
export interface Forked {
  sessionId: string;
  cwd: string;
  created?: Created;
  materialized?: Materialized;
}

const isForkArgs = (arg: unknown): arg is ForkArgs =>
  typeof arg === 'object' && arg !== null && !isSessionNode(arg) && !(arg instanceof vscode.Uri);

/** The session's first words: its chat's first message, else its title. */
function firstWords(deps: ForkCommandDeps, t: SessionTarget): string | undefined {
  const chat = deps.chats.get(t.host.config.id, t.sessionId);
  const first = chat?.session.thread.entries.find((e) => e.type === 'user');
  const title = t.row?.title ?? chat?.session.thread.meta.title;
  return (first?.type === 'user' ? first.text : undefined) || (typeof title === 'string' ? title : undefined);
}

async function askBranch(given: ForkArgs, words: string | undefined, title: string): Promise<string | undefined> {
  if (given.branch !== undefined) return given.branch;
  return vscode.window.showInputBox({
    title,
    prompt: 'The new branch, checked out in a worktree of its own',
    value: defaultBranchName(words, new Date()),
    validateInput: (v) => (v.trim() ? undefined : 'A branch needs a name.'),
  });
}

/** The agent's connection when it forks sessions; else said, and undefined. */
async function forking(t: SessionTarget): Promise<AgentConnection | undefined> {
  const c = await t.host.connect();
  if (c.features.fork) return c;
  noFork(c.config.name);
  return undefined;
}

/**
 * "Fork into Worktree…" (a session's row, the chat's title bar) and "Fork From Here" (a user
 * message in the chat): a new worktree of the session's folder, then `session/fork` with the
 * worktree as `cwd`, and the fork's chat. The first carries the folder's uncommitted changes
 * over; the second writes the files of the checkpoint taken before the message.
 */
export function forkCommands(deps: ForkCommandDeps): Commands {
  const git = deps.rows.worktrees;

  /** Forks `t` into `cwd`, lists the fork at once and opens its chat. */
  const forkInto = async (t: SessionTarget, c: AgentConnection, cwd: string, what: string): Promise<string> => {
    const agentId = t.host.config.id;
    let forked;
    try {
      forked = await forkSession(c, { sessionId: t.sessionId, cwd, mcpServers: await deps.mcpServers(c) });
    } catch (e) {
      throw new Error(`${what}, but ${c.config.name} did not fork the session: ${(e as Error).message}`);
    }
    const info = { sessionId: forked.sessionId, cwd, title: t.row?.title ?? null, updatedAt: new Date().toISOString() };
    deps.decor.markCreated(agentId, forked.sessionId);
    deps.lists.addCreated(agentId, info);
    await deps.chats.open(chatTarget(agentId, info), c.features.load ? 'load' : 'resume');
    return forked.sessionId;
  };

  /** The session's folder in the new worktree: the same place relative to the repository's top. */
  const within = (created: Created, top: string, cwd: string) => path.join(created.path, path.relative(top, cwd));

  return {
    'acp.forkIntoWorktree': async (node?: unknown, arg?: unknown): Promise<Forked | undefined> => {
      if (!trustedForWorktrees()) return undefined;
      const given = isForkArgs(arg) ? arg : isForkArgs(node) ? node : {};
      const named = given.agentId && given.sessionId && given.cwd ? deps.agents.get(given.agentId) : undefined;
      const [t] = named
        ? [{ host: named, sessionId: given.sessionId!, cwd: given.cwd! }]
        : await sessionTargets(deps, isForkArgs(node) ? undefined : node, undefined, 'Fork which session?');
      if (!t) return undefined;
      const c = await forking(t);
      if (!c) return undefined;
      const repo = await git.repo(t.cwd);
      const branch = (await askBranch(given, firstWords(deps, t), 'Fork into Worktree'))?.trim();
      if (!branch) return undefined;
      const pending = await git.uncommitted(repo.top);
      const ok = await deps.confirm(
        `Fork the session into a new worktree on ${branch}?`,
        'Fork',
        forkCarried(repo.branch ?? repo.head.slice(0, 7), pending),
      );
      if (!ok) return undefined;
      const { location, copyFiles } = deps.settings.value.worktrees;
      const created = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Creating the worktree ${branch}…` },
        () => git.create(repo.top, { branch, location, copyFiles, carry: true }),
      );
      void deps.rows.refresh();
      carriedSkipped(created);
      const cwd = within(created, repo.top, t.cwd);
      const sessionId = await forkInto(t, c, cwd, `The worktree ${branch} was made at ${created.path}`);
      return { sessionId, cwd, created };
    },

    'acp.forkFromHere': async (
      agentId: unknown,
      sessionId: unknown,
      index: unknown,
      arg?: unknown,
    ): Promise<Forked | undefined> => {
      if (typeof agentId !== 'string' || typeof sessionId !== 'string' || typeof index !== 'number') return undefined;
      if (!trustedForWorktrees()) return undefined;
      const chat = deps.chats.get(agentId, sessionId);
      const host = deps.agents.get(agentId);
      const entry = chat?.session.thread.entries[index];
      if (!chat || !host || entry?.type !== 'user') return undefined;
      const given = isForkArgs(arg) ? arg : {};
      const t: SessionTarget = { host, sessionId, cwd: chat.session.target.cwd };
      const c = await forking(t);
      if (!c) return undefined;
      const repo = await git.repo(t.cwd).catch((e: unknown) => {
        if (e instanceof WorktreeError && e.problem === 'notRepo') return undefined;
        throw e;
      });
      if (!repo) {
        const ok = await deps.confirm(
          `${t.cwd} is not a git repository: fork the conversation in place, without the files of that message?`,
          'Fork in Place',
          'A fork from a message goes into a new git worktree with the files as they were before it; without a repository there is no worktree. The fork works on the folder as it is now, and still remembers the later turns: session/fork has no message point.',
        );
        if (!ok) return undefined;
        const forkedId = await forkInto(t, c, t.cwd, 'Nothing was changed on disk');
        return { sessionId: forkedId, cwd: t.cwd };
      }
      // The session's own folder among those checkpointed (its roots, as they were pinned).
      const kept = await deps.keeper.beforeMessage(chat.session, index);
      const [folder, before] = [...kept].find(([f]) => normalizePath(f) === normalizePath(t.cwd)) ?? [];
      if (!folder || !before) {
        void vscode.window.showInformationMessage(
          'No checkpoint was kept from before this message: Fork into Worktree forks from the files as they are now.',
        );
        return undefined;
      }
      const branch = (await askBranch(given, entry.text, 'Fork From Here'))?.trim();
      if (!branch) return undefined;
      if (
        !(await deps.confirm(
          `Fork the conversation from this message into a worktree on ${branch}?`,
          'Fork',
          forkFromHereDetail,
        ))
      )
        return undefined;
      const { location, copyFiles } = deps.settings.value.worktrees;
      const { created, materialized } = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Creating the worktree ${branch}…` },
        async () => {
          const made = await git.create(repo.top, { branch, location, copyFiles });
          const cwd = within(made, repo.top, t.cwd);
          return { created: made, materialized: await deps.keeper.checkpoints.materialize(folder, before, cwd) };
        },
      );
      void deps.rows.refresh();
      const cwd = within(created, repo.top, t.cwd);
      const forkedId = await forkInto(t, c, cwd, `The worktree ${branch} was made at ${created.path}`);
      return { sessionId: forkedId, cwd, created, materialized };
    },
  };
}
