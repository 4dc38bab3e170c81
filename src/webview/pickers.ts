/** The session's mode and config option pickers; the composer dispatches their changes. */
import type { SessionConfigSelectOption, SessionConfigSelectGroup } from '@agentclientprotocol/sdk';
import type { ThreadMeta } from '../protocol/entries';
import { el, option } from './dom';

export function renderPickers(meta: ThreadMeta, canSetMode: boolean, canSetConfig: boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  const modes = meta.modes;
  // An agent that offers its modes as a config option keeps the legacy modes for older
  // clients; ACP asks clients to prefer the config option, so only one mode picker shows.
  const modeAsConfig = canSetConfig && meta.configOptions.some((config) => config.category === 'mode');
  if (canSetMode && !modeAsConfig && modes && modes.availableModes.length) {
    const select = el('select', 'picker');
    select.dataset.mode = '';
    select.title = 'Mode';
    select.setAttribute('aria-label', 'Mode');
    for (const mode of modes.availableModes) select.append(option(mode.id, mode.name, mode.description ?? undefined));
    select.value = modes.currentModeId;
    out.push(select);
  }
  if (!canSetConfig) return out;
  for (const config of meta.configOptions) {
    if (config.type === 'select') {
      const select = el('select', 'picker');
      select.dataset.config = config.id;
      select.title = config.description ?? config.name;
      select.setAttribute('aria-label', config.name);
      for (const item of config.options as (SessionConfigSelectOption | SessionConfigSelectGroup)[]) {
        if ('group' in item) {
          const group = el('optgroup');
          group.label = item.name;
          for (const inner of item.options)
            group.append(option(inner.value, inner.name, inner.description ?? undefined));
          select.append(group);
        } else {
          select.append(option(item.value, item.name, item.description ?? undefined));
        }
      }
      select.value = config.currentValue;
      out.push(select);
    } else if (config.type === 'boolean') {
      const label = el('label', 'picker-toggle');
      const box = el('input');
      box.type = 'checkbox';
      box.checked = config.currentValue;
      box.dataset.config = config.id;
      label.title = config.description ?? config.name;
      label.append(box, document.createTextNode(config.name));
      out.push(label);
    }
  }
  return out;
}
