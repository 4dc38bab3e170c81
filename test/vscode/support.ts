// Helpers for suites inside the extension host.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../src/extension';
import type { ChatPanel } from '../../src/ui/chat/chatPanel';
import type { TreeNode } from '../../src/ui/sessionsView/sessionsTree';
import { waitFor } from '../support/wait';

export async function api(): Promise<AcpTestApi> {
  const ext = vscode.extensions.getExtension<AcpTestApi>('acp-tools.acp-client');
  if (!ext) throw new Error('the extension is not installed');
  return ext.activate();
}

/**
 * Asks the test driver (test/host/runVscodeSuites.ts) for a gesture in the workbench that no
 * extension API can make, such as clicking "Trust". Wait for its effect afterwards.
 */
export function askDriver(gesture: 'trustWorkspace'): void;
/**
 * `chooseQuickPickRow`: once a QuickPick shows, click its row with this label (or at this 0-based
 * position), as a person would: the workbench's own QuickPick (`showQuickPick`) gives the
 * extension no handle to wait on.
 */
export function askDriver(gesture: 'chooseQuickPickRow', row: string | number): void;
/** `sendChatDraft`: once the chat in front holds a draft beginning with `start`, press Enter in its message box. */
export function askDriver(gesture: 'sendChatDraft', start: string): void;
export function askDriver(gesture: string, arg?: string | number): void {
  console.log(`ACP-SUITE-DRIVER ${gesture}${arg === undefined ? '' : ` ${arg}`}`);
}

/**
 * Makes the row that `match` names (the item, or a test of one: a list that pages on replaces
 * its items) the active row of `qp` the way the arrow keys do, and waits until the workbench
 * reports it: workbench commands move the workbench's own focus, which it sends back, so Enter
 * then acts on this row. (Setting `activeItems` here reaches the workbench on a later tick that
 * nothing announces.)
 */
export async function moveTo<T extends vscode.QuickPickItem>(
  qp: vscode.QuickPick<T>,
  match: T | ((item: T) => boolean),
): Promise<void> {
  const is = typeof match === 'function' ? (match as (item: T) => boolean) : (item: T) => item === match;
  const active = () => qp.activeItems.length > 0 && is(qp.activeItems[0]!);
  // The workbench may be on it already (the first row, or the first match of a filter): it
  // reports its active row when it shows or filters the list.
  const already = await waitFor('the row active', active, 2_000).then(
    () => true,
    () => false,
  );
  if (already) return;
  const index = qp.items.findIndex(is);
  if (index < 0) throw new Error('no such row in the QuickPick');
  const command =
    index > qp.items.length / 2 ? 'workbench.action.quickOpenSelectPrevious' : 'workbench.action.quickOpenSelectNext';
  for (let steps = 0; !active(); steps++) {
    if (steps > qp.items.length) throw new Error(`could not make "${qp.items[index]!.label}" the active row`);
    const before = qp.activeItems[0];
    await vscode.commands.executeCommand(command);
    await waitFor('the workbench to move the active row', () => qp.activeItems[0] !== before);
  }
}

/** The labels the tree would show for a list of nodes. */
export function labels(a: AcpTestApi, nodes: TreeNode[]): string[] {
  return nodes.map((n) => {
    const label = a.tree.getTreeItem(n).label;
    return typeof label === 'string' ? label : (label?.label ?? '');
  });
}

/** Root children once the first page has arrived (no "Loading…" row). */
export async function loadedRoot(a: AcpTestApi, parent?: TreeNode): Promise<TreeNode[]> {
  return waitFor('the first page', () => {
    const nodes = a.tree.getChildren(parent);
    const loading = nodes.some((n) => n.type === 'state' && n.kind === 'loading');
    const list = nodes.find((n) => n.type === 'session' || n.type === 'state');
    const fresh =
      list && (list.type === 'session' || list.type === 'state') && list.list.loaded && !list.list.fromCache;
    return !loading && fresh && nodes.length > 0 ? nodes : undefined;
  });
}

/** Context key values as the workbench would hold them while evaluating a `when` clause. */
export type WhenContext = Record<string, string | number | boolean | undefined>;

/**
 * Evaluates a manifest `when` clause of the forms this extension uses (`a && b`, `a || b`, `!k`,
 * `k`, `k == v`, `k == 'v'`, `k != v`, `k =~ /re/`), so a test can ask what the workbench would offer.
 * An unknown form throws rather than guessing.
 */
export function whenHolds(when: string | undefined, context: WhenContext): boolean {
  if (when === undefined) return true;
  return when.split('||').some((any) =>
    any.split('&&').every((raw) => {
      const term = raw.trim();
      let m: RegExpMatchArray | null;
      if (term === 'true' || term === 'false') return term === 'true';
      if ((m = /^!([\w.]+)$/.exec(term))) return !context[m[1]!];
      if ((m = /^([\w.]+)$/.exec(term))) return !!context[m[1]!];
      if ((m = /^([\w.]+) (==|!=) (?:'([^']*)'|([\w.-]+))$/.exec(term)))
        return (String(context[m[1]!]) === (m[3] ?? m[4])) === (m[2] === '==');
      if ((m = /^([\w.]+) =~ \/(.*)\/(\w*)$/.exec(term)))
        return new RegExp(m[2]!, m[3]).test(String(context[m[1]!] ?? ''));
      throw new Error(`cannot evaluate the when clause term "${term}"`);
    }),
  );
}

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

/** The commands a manifest menu (`view/title`, `view/item/context`, `commandPalette`…) offers in a context. */
export function offered(menu: string, context: WhenContext): string[] {
  const ext = vscode.extensions.getExtension('acp-tools.acp-client')!;
  const menus = (ext.packageJSON as { contributes: { menus: Record<string, MenuEntry[]> } }).contributes.menus;
  return (menus[menu] ?? []).filter((m) => whenHolds(m.when, context)).map((m) => m.command);
}

/** The welcome contents of the Sessions view shown in a context. */
export function welcomes(context: WhenContext): string[] {
  const ext = vscode.extensions.getExtension('acp-tools.acp-client')!;
  const list = (
    ext.packageJSON as { contributes: { viewsWelcome: { view: string; contents: string; when?: string }[] } }
  ).contributes.viewsWelcome;
  return list.filter((w) => w.view === 'acp.sessions' && whenHolds(w.when, context)).map((w) => w.contents);
}

/**
 * Catches the notifications of one kind the extension shows (toasts are hidden in payload
 * mode) until `restore()`: each is answered as if dismissed.
 */
export function catchMessages(kind: 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage'): {
  shown: string[];
  restore(): void;
} {
  const shown: string[] = [];
  const original = vscode.window[kind];
  vscode.window[kind] = ((message: string) => {
    shown.push(message);
    return Promise.resolve(undefined);
  }) as typeof original;
  return { shown, restore: () => void (vscode.window[kind] = original as never) };
}

/** A file the reference agent's `wait for` step waits on, not yet written. */
export const goFile = () => join(mkdtempSync(join(tmpdir(), 'acp-cp-suite-')), 'go');

/**
 * Sends `text` with the agent held until the turn's checkpoints are taken: a prompt waits only
 * 3 s for them, and on a busy machine a folder's first snapshot takes longer, which would put
 * the agent's writes before the turn's start (the turn is then marked late, and rightly shows
 * less). Returns the prompt as sent.
 */
export async function promptAfterCheckpoints(chat: ChatPanel, text: string): Promise<string> {
  const a = await api();
  const go = goFile();
  const sent = `wait for ${go} ${text}`;
  const turn = chat.session.prompt(sent);
  await a.checkpoints.turns.settled(chat.session.sessionId!);
  writeFileSync(go, '');
  await turn;
  return sent;
}
