// Helpers for suites inside the extension host.
import * as vscode from 'vscode';
import type { AcpTestApi } from '../../src/extension';
import type { TreeNode } from '../../src/ui/sessionsTree';

export async function api(): Promise<AcpTestApi> {
  const ext = vscode.extensions.getExtension<AcpTestApi>('acp-tools.acp-client');
  if (!ext) throw new Error('the extension is not installed');
  return ext.activate();
}

/** Polls until `check` returns a value other than undefined/false, or fails after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000): Promise<T> {
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
    const fresh = list && (list.type === 'session' || list.type === 'state') && list.list.loaded && !list.list.fromCache;
    return !loading && fresh && nodes.length > 0 ? nodes : undefined;
  });
}
