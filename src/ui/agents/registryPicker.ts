import * as vscode from 'vscode';
import { PRESETS, findOnPath, type AgentPreset } from '../../agent/presets';
import type { RegistryAgents } from '../../app/registryAgents';
import type { RegistryAgent } from '../../registry/format';
import { sizeOf } from '../../registry/http';
import { themedIcon } from '../../registry/icons';
import { installWay, isWay, type InstallWay, type NoWay } from '../../registry/installWay';
import { offers, type Offer } from '../../registry/offers';
import type { RegistryRead } from '../../registry/registrySource';
import { sizeText } from '../../registry/download';

/** What the user chose in Add Agent. */
export type AgentChoice =
  | {
      readonly kind: 'registry';
      readonly agent: RegistryAgent;
      readonly way: InstallWay | NoWay;
      readonly size?: number;
    }
  | { readonly kind: 'preset'; readonly preset: AgentPreset }
  | { readonly kind: 'custom' };

type Item = vscode.QuickPickItem & { choice?: AgentChoice; info?: string };

/** Sizes of downloads, by address, as servers gave them (one HEAD request each per window). */
const sizes = new Map<string, Promise<number | undefined>>();

function sizeFor(address: string): Promise<number | undefined> {
  let known = sizes.get(address);
  if (!known) {
    known = sizeOf(address, { answerMs: 8_000 }).catch(() => undefined);
    sizes.set(address, known);
  }
  return known;
}

/** How an offer installs, in the few words of its row. */
function howWords(way: InstallWay | NoWay, size?: number): string {
  if (!isWay(way))
    return way.needs === 'uv' ? 'needs uv' : way.needs === 'node' ? 'needs Node.js' : 'not for this machine';
  if (way.kind === 'npx') return 'npm';
  if (way.kind === 'uvx') return 'uv';
  return size !== undefined ? `download ${sizeText(size)}` : 'download';
}

/** The registry's source in words, for the separator above its agents. */
export function sourceWords(read: RegistryRead | undefined): string {
  if (!read) return 'ACP Registry · loading…';
  if (!read.registry) return `ACP Registry · unavailable: ${read.problem ?? 'not read'}`;
  const date = read.fetchedAt !== undefined ? new Date(read.fetchedAt).toISOString().slice(0, 10) : '';
  if (read.from === 'shipped') return `ACP Registry · the copy shipped with this extension, of ${date} (offline)`;
  if (read.from === 'cache' && read.problem) return `ACP Registry · the copy of ${date} (offline)`;
  return 'ACP Registry';
}

function checkedWords(p: AgentPreset): string {
  return `Checked ${p.checked.version} on ${p.checked.date}: ${p.signIn}`;
}

export function offerItem(o: Offer, size: number | undefined, icon?: vscode.QuickPickItem['iconPath']): Item {
  if (o.kind === 'unavailable') {
    const name = o.entry.name ?? o.entry.id ?? 'An entry';
    return {
      label: `$(warning) ${name}`,
      description: 'unavailable',
      detail: `The registry's entry cannot be used: ${o.entry.why}.`,
      info: o.entry.why,
    };
  }
  const setUp = o.setUp.length > 0 ? ' · $(check) set up' : '';
  if (o.kind === 'preset') {
    const p = o.preset;
    const needs = o.found
      ? `$(check) ${p.requires} found.`
      : `$(warning) ${p.requires} not found on this machine. ${p.install}`;
    return {
      label: p.name,
      description: `${[p.command, ...p.args].join(' ')}${setUp}`,
      detail: `${needs} ${checkedWords(p)}`,
      choice: { kind: 'preset', preset: p },
    };
  }
  const offered = isWay(o.way);
  const why = offered ? '' : ` (${(o.way as NoWay).why})`;
  return {
    label: offered ? o.agent.name : `$(circle-slash) ${o.agent.name}`,
    iconPath: offered ? (icon ?? new vscode.ThemeIcon('hubot')) : undefined,
    description: `${o.agent.version} · ${howWords(o.way, size)}${setUp}`,
    detail: `${o.agent.description}${why}${o.preset ? ` ${checkedWords(o.preset)}` : ''}`,
    choice: { kind: 'registry', agent: o.agent, way: o.way, ...(size !== undefined ? { size } : {}) },
  };
}

const CUSTOM: Item = {
  label: '$(terminal) Custom command…',
  description: 'Any program that speaks ACP over stdio',
  detail: 'Its program is looked up on this machine before it is added.',
  choice: { kind: 'custom' },
};

export interface PickDeps {
  readonly registry: RegistryAgents;
  /** `media/registry/icons` of the extension. */
  readonly shippedIcons: string;
  readonly title: string;
}

/**
 * Add Agent's list: the presets and Custom command… at once, the registry's agents as soon as
 * it is read (the kept copy within the hour), then their download sizes and icons as they come.
 * Searchable by name, version, how it installs and description.
 */
export function pickAgent(deps: PickDeps): Promise<AgentChoice | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = deps.title;
  qp.placeholder = 'Which agent do you want to add? Type to search the ACP Registry';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  const registry = deps.registry;
  const icons = new Map<string, vscode.QuickPickItem['iconPath']>();
  const known = new Map<string, number | undefined>();
  let read: RegistryRead | undefined;
  let closed = false;

  const render = () => {
    if (closed) return;
    const list = offers({
      agents: read?.registry?.agents ?? [],
      unavailable: read?.registry?.unavailable ?? [],
      presets: PRESETS,
      configured: registry.configured(),
      machine: registry.machine(),
      found: (p) => findOnPath(p) !== undefined,
    });
    const items: Item[] = [{ label: sourceWords(read), kind: vscode.QuickPickItemKind.Separator }];
    const address = (o: Offer) =>
      o.kind === 'registry' && isWay(o.way) && o.way.kind === 'binary' ? o.way.target.archive : undefined;
    for (const o of list.filter((x) => x.kind === 'registry')) {
      const a = address(o);
      items.push(offerItem(o, a ? known.get(a) : undefined, o.kind === 'registry' ? icons.get(o.agent.id) : undefined));
    }
    const unavailable = list.filter((x) => x.kind === 'unavailable');
    // The registry's entries it cannot use, right under its others: shown, never offered.
    for (const o of unavailable) items.push(offerItem(o, undefined));
    items.push({ label: 'Presets', kind: vscode.QuickPickItemKind.Separator });
    for (const o of list.filter((x) => x.kind === 'preset')) items.push(offerItem(o, undefined));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, CUSTOM);
    const active = qp.activeItems[0]?.label;
    qp.items = items;
    const again = items.find((i) => i.label === active);
    if (again) qp.activeItems = [again];
  };

  const more = (r: RegistryRead) => {
    for (const agent of r.registry?.agents ?? []) {
      void themedIcon(agent, { shipped: deps.shippedIcons, cache: registry.iconsDir }).then((files) => {
        if (!files) return;
        icons.set(agent.id, { light: vscode.Uri.file(files.light), dark: vscode.Uri.file(files.dark) });
        render();
      });
      const way = installWay(agent, registry.machine());
      if (isWay(way) && way.kind === 'binary') {
        const a = way.target.archive;
        void sizeFor(a).then((size) => {
          known.set(a, size);
          if (size !== undefined) render();
        });
      }
    }
  };

  render();
  qp.show();
  void registry.read().then((r) => {
    read = r;
    qp.busy = false;
    render();
    more(r);
  });
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (!item?.choice) return;
      closed = true;
      resolve(item.choice);
      qp.hide();
    });
    qp.onDidHide(() => {
      closed = true;
      resolve(undefined);
      qp.dispose();
    });
  });
}
