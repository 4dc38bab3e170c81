/**
 * What the panel can be sent. Every message to the webview is serialised; an entry that does not
 * survive it (it should not happen once values are bounded, see `bounded.ts`) would make the
 * whole message fail, and with it the chat's history. These replace such entries with a notice,
 * so the rest of the chat still shows.
 */
import type { NoticeEntry, PanelChange, PanelEntry, ThreadMeta } from '../protocol/entries';

/** Stands where an entry could not be shown. */
export const UNSHOWN_ENTRY: NoticeEntry = {
  type: 'notice',
  severity: 'error',
  title: 'This part of the chat could not be shown',
  description: 'It could not be sent to the panel; the "ACP" log says why.',
};

function serialisable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** The entries, each that cannot be sent replaced by {@link UNSHOWN_ENTRY}. */
export function showableEntries(entries: readonly PanelEntry[]): PanelEntry[] {
  return entries.map((e) => (serialisable(e) ? e : UNSHOWN_ENTRY));
}

/** The changes, each entry that cannot be sent replaced by {@link UNSHOWN_ENTRY}. */
export function showableChanges(changes: readonly PanelChange[]): PanelChange[] {
  return changes.map((c) =>
    (c.kind === 'entryAdded' || c.kind === 'entryChanged') && !serialisable(c.entry)
      ? { ...c, entry: UNSHOWN_ENTRY }
      : c,
  );
}

/** The session-wide state, or only its title when the rest cannot be sent. */
export function showableMeta(meta: ThreadMeta): ThreadMeta {
  if (serialisable(meta)) return meta;
  return { commands: [], configOptions: [], ...(typeof meta.title === 'string' ? { title: meta.title } : {}) };
}
