// Helpers for suites inside the extension host.
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../src/extension';
import type { TreeNode } from '../../src/ui/sessionsTree';

export async function api(): Promise<AcpTestApi> {
  const ext = vscode.extensions.getExtension<AcpTestApi>('acp-tools.acp-client');
  if (!ext) throw new Error('the extension is not installed');
  return ext.activate();
}

/**
 * Asks the test driver (test/host/runVscodeSuites.ts) for a gesture in the workbench that no
 * extension API can make, such as clicking "Trust". Wait for its effect afterwards.
 */
export function askDriver(gesture: 'trustWorkspace'): void {
  console.log(`ACP-SUITE-DRIVER ${gesture}`);
}

/** Polls until `check` returns a value other than undefined/false, or fails after `ms`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
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
  return until('the first page', () => {
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
 * `k`, `k == v`, `k != v`, `k =~ /re/`), so a test can ask what the workbench would offer.
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
      if ((m = /^([\w.]+) (==|!=) ([\w.-]+)$/.exec(term))) return (String(context[m[1]!]) === m[3]) === (m[2] === '==');
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
