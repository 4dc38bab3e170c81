import * as vscode from 'vscode';
import type { AgentRegistry } from '../../agent/agentHost';
import type { WorktreeRow, WorktreeRows } from '../../app/worktreeRows';
import type { WorktreeSettings } from '../../app/settings';
import { defaultBranchName } from '../../worktrees/paths';
import type { Created, MergeResult } from '../../worktrees/worktrees';
import type { ChatPanels } from '../chat/chatPanels';
import type { Commands } from '../commands';
import type { Confirm } from '../messages';
import { pickAgent, pickFolder } from '../pickers/agentPicker';
import type { ChangeResource } from '../checkpoints/changesEditor';
import type { TreeNode, WorktreeNode } from '../sessionsView/treeNodes';
import { reviewResources } from './worktreeContents';
import { discardDetail, mergeOutcome, trustedForWorktrees, worktreeCreated } from './worktreeMessages';

export interface WorktreeCommandDeps {
  agents: AgentRegistry;
  chats: ChatPanels;
  rows: WorktreeRows;
  settings: { readonly value: { readonly worktrees: WorktreeSettings } };
  /** Asks before a destructive action (modal); tests replace it. */
  confirm: Confirm;
}

/**
 * What "New Session in Worktree…" may be given instead of asking (a test, another command): any
 * field left out is asked for.
 */
export interface NewWorktreeArgs {
  folder?: string;
  branch?: string;
  base?: string;
  agentId?: string;
  /** Run the configured setup command without asking (true), skip it (false), or ask. */
  setup?: boolean;
}

/** The folder a command was run on: a Sessions folder row, an Explorer folder, or the user's choice. */
async function folderOf(arg: unknown): Promise<string | undefined> {
  const node = arg as Partial<TreeNode> | undefined;
  if (node?.type === 'folder' && 'path' in node) return node.path;
  if (arg instanceof vscode.Uri && arg.scheme === 'file') return arg.fsPath;
  const folder = await pickFolder('Start a session in a worktree of which folder?');
  return folder?.uri.fsPath;
}

function isArgs(arg: unknown): arg is NewWorktreeArgs {
  return typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) && !('type' in arg);
}

/** The worktree a row or a test names by its path, with the folder whose repository it is of. */
function worktreeOf(
  deps: WorktreeCommandDeps,
  arg: unknown,
): { repo: string; path: string; row: WorktreeRow } | undefined {
  const node = arg as Partial<WorktreeNode> | undefined;
  const wanted = node?.type === 'worktree' ? node.path : typeof arg === 'string' ? arg : undefined;
  const found = wanted ? deps.rows.find(wanted) : undefined;
  return found && { repo: found.folder, path: found.row.info.path, row: found.row };
}

/** New Session in Worktree, and a worktree row's Review Changes, Merge, Open in New Window and Discard. */
export function worktreeCommands(deps: WorktreeCommandDeps): Commands {
  const { rows } = deps;
  const git = rows.worktrees;
  return {
    'acp.newWorktreeSession': async (arg?: unknown): Promise<Created | undefined> => {
      if (!trustedForWorktrees()) return undefined;
      const given = isArgs(arg) ? arg : {};
      const folder = given.folder ?? (await folderOf(arg));
      if (!folder) return undefined;
      const repo = await git.repo(folder);
      const branch =
        given.branch ??
        (await vscode.window.showInputBox({
          title: 'New Session in Worktree',
          prompt: 'The new branch, checked out in a worktree of its own',
          value: defaultBranchName(undefined, new Date()),
          validateInput: (v) => (v.trim() ? undefined : 'A branch needs a name.'),
        }));
      if (!branch) return undefined;
      const base = given.base ?? (await pickBase(await git.branches(folder), repo.branch));
      if (!base) return undefined;
      const host = given.agentId
        ? deps.agents.get(given.agentId)
        : await pickAgent(deps.agents, 'Start the session with which agent?');
      if (!host) return undefined;
      const { location, copyFiles, setupCommand } = deps.settings.value.worktrees;
      const created = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Creating the worktree ${branch}…` },
        () => git.create(folder, { branch, base, location, copyFiles }),
      );
      void rows.refresh(folder);
      worktreeCreated(created);
      if (setupCommand && given.setup !== false) {
        const run =
          given.setup === true ||
          (await deps.confirm(
            `Run "${setupCommand}" in the new worktree?`,
            'Run Setup',
            `In a terminal in ${created.path}. Set by acp.worktrees.setupCommand.`,
          ));
        if (run) {
          const terminal = vscode.window.createTerminal({ name: `Setup: ${branch}`, cwd: created.path });
          terminal.show(true);
          terminal.sendText(setupCommand);
        }
      }
      await deps.chats.open({ agentId: host.config.id, cwd: created.path, additionalDirectories: [] }, 'new');
      return created;
    },

    'acp.reviewWorktree': async (arg?: unknown): Promise<ChangeResource[] | undefined> => {
      if (!trustedForWorktrees()) return undefined;
      const wt = worktreeOf(deps, arg);
      const { info } = wt?.row ?? {};
      if (!wt || !info?.base || info.missing) return undefined;
      const { mergeBase, files } = await git.changes(wt.path, info.base);
      if (files.length === 0) {
        void vscode.window.showInformationMessage(`${info.branch} has no changes against ${info.base}.`);
        return [];
      }
      const resources = reviewResources(wt.path, mergeBase, files);
      await vscode.commands.executeCommand('vscode.changes', `${info.branch} ↔ ${info.base}`, resources);
      return resources;
    },

    'acp.mergeWorktree': async (arg?: unknown, how?: unknown): Promise<MergeResult | undefined> => {
      if (!trustedForWorktrees()) return undefined;
      const wt = worktreeOf(deps, arg);
      const { info } = wt?.row ?? {};
      if (!wt || !info?.base || !info.branch) return undefined;
      const mode = how === 'merge' || how === 'squash' ? how : await pickMergeMode(info.branch, info.base);
      if (!mode) return undefined;
      const pending = await git.uncommitted(wt.path);
      let commitMessage: string | undefined;
      if (pending.length > 0) {
        const ok = await deps.confirm(
          `${info.branch} has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}. Commit them in the worktree, then merge?`,
          'Commit and Merge',
          pending
            .map((f) => `${f.status} ${f.path}`)
            .slice(0, 20)
            .join('\n'),
        );
        if (!ok) return undefined;
        commitMessage = `Work of the session in ${info.branch}`;
      }
      const result = await git.merge(info, { mode, commitMessage });
      void rows.refresh(wt.repo);
      await mergeOutcome(result, info.branch, info.base);
      return result;
    },

    'acp.openWorktreeWindow': async (arg?: unknown) => {
      const wt = worktreeOf(deps, arg);
      if (wt && !wt.row.info.missing)
        await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(wt.path), { forceNewWindow: true });
    },

    'acp.discardWorktree': async (arg?: unknown): Promise<boolean> => {
      if (!trustedForWorktrees()) return false;
      const wt = worktreeOf(deps, arg);
      if (!wt) return false;
      const { info } = wt.row;
      const seen = await git.losses(wt.repo, info);
      const ok = await deps.confirm(
        `Discard the worktree ${info.branch ?? info.path}?`,
        'Discard',
        discardDetail(info, seen),
      );
      if (!ok) return false;
      await git.discard(wt.repo, info, seen);
      await rows.refresh(wt.repo);
      return true;
    },

    'acp.refreshWorktrees': () => rows.refresh(),
  };
}

/** Trusting the workspace lets its worktrees be read: the rows read in Restricted Mode were none. */
export function readWorktreesOnTrust(rows: WorktreeRows): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() => void rows.refresh());
}

async function pickBase(branches: readonly string[], current: string | undefined): Promise<string | undefined> {
  const ordered = current ? [current, ...branches.filter((b) => b !== current)] : [...branches];
  const picked = await vscode.window.showQuickPick(
    ordered.map((b) => ({ label: b, description: b === current ? 'current branch' : undefined })),
    { title: 'New Session in Worktree', placeHolder: 'The branch to start from (and to merge back into)' },
  );
  return picked?.label;
}

async function pickMergeMode(branch: string, base: string): Promise<'merge' | 'squash' | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Merge', description: `a merge commit on ${base}`, mode: 'merge' as const },
      {
        label: 'Squash',
        description: `${branch}'s changes staged on ${base}, for you to commit`,
        mode: 'squash' as const,
      },
    ],
    { title: `Merge ${branch} into ${base}` },
  );
  return picked?.mode;
}
