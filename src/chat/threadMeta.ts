import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { UpdateKind } from '../agent/parseUpdate';
import type { ThreadMeta } from '../protocol/entries';

/**
 * The session-wide update kinds: they change the thread's meta, not its entries, and may precede
 * a prompt's echo, so they leave the echo window open.
 */
const META_KINDS = [
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
] as const satisfies readonly UpdateKind[];

/** A session-wide update. */
export type MetaUpdate = Extract<SessionUpdate, { sessionUpdate: (typeof META_KINDS)[number] }>;

const metaKinds = new Set<string>(META_KINDS);

export function isMetaUpdate(u: SessionUpdate): u is MetaUpdate {
  return metaKinds.has(u.sessionUpdate);
}

/** Applies a session-wide update to `meta`; false when it changed nothing (no event then). */
export function applyMetaUpdate(meta: ThreadMeta, u: MetaUpdate): boolean {
  switch (u.sessionUpdate) {
    case 'available_commands_update':
      meta.commands = u.availableCommands;
      return true;
    case 'current_mode_update':
      meta.modes = { ...(meta.modes ?? { availableModes: [] }), currentModeId: u.currentModeId };
      return true;
    case 'config_option_update':
      meta.configOptions = u.configOptions;
      return true;
    case 'session_info_update':
      // Absent means unchanged, null clears (SessionInfoUpdate).
      if (u.title === undefined || (u.title ?? undefined) === meta.title) return false;
      meta.title = u.title ?? undefined;
      return true;
    case 'usage_update': {
      // The cost is cumulative and optional: absent keeps the last one, null clears it.
      const cost = u.cost === undefined ? meta.usage?.cost : (u.cost ?? undefined);
      meta.usage = {
        used: u.used,
        size: u.size,
        ...(cost ? { cost: { amount: cost.amount, currency: cost.currency } } : {}),
      };
      return true;
    }
  }
}
