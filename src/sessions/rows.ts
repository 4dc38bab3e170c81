import type { SessionInfo, SessionInfoUpdate } from '@agentclientprotocol/sdk';
import type { ListedSession } from '../agent/types';
import { parseUpdatedAt } from './time';
import { sanitizeTitle } from './title';

/**
 * One session as the views show it: the agent's `SessionInfo` untouched, plus what is derived
 * from it once (not per render). Rows are immutable: a change makes a new row.
 */
export interface SessionRow extends ListedSession {
  /** The sanitised title, or "Untitled session · <short id>". */
  readonly label: string;
  /** The agent gave no usable title. */
  readonly untitled: boolean;
  /** `updatedAt` parsed; `undefined` when missing or unparsable (the row shows no time). */
  readonly updatedAtMs: number | undefined;
}

/** Derives a row from what the agent listed. */
export function toRow(info: ListedSession): SessionRow {
  const { label, untitled } = sanitizeTitle(info.title, info.sessionId);
  // Built field by field, not spread: every row has one shape, which keeps a page of a
  // thousand rows cheap. Fields the agent left out stay out (a row round-trips as it came).
  const row: { -readonly [K in keyof SessionRow]: SessionRow[K] } = {
    sessionId: info.sessionId,
    cwd: info.cwd,
    label,
    untitled,
    updatedAtMs: parseUpdatedAt(info.updatedAt),
  };
  if (info.title !== undefined) row.title = info.title;
  if (info.updatedAt !== undefined) row.updatedAt = info.updatedAt;
  if (info.additionalDirectories !== undefined) row.additionalDirectories = info.additionalDirectories;
  if (info._meta !== undefined) row._meta = info._meta;
  if (info.archived !== undefined) row.archived = info.archived;
  if (info.aliases !== undefined) row.aliases = info.aliases;
  if (info.forkedFrom !== undefined) row.forkedFrom = info.forkedFrom;
  return row;
}

/**
 * Applies a `session_info_update`: only the fields it carries change ("omitted fields are left
 * unchanged"), `null` clears. Returns `undefined` when nothing changed, so no event fires.
 */
export function applyUpdate(row: SessionRow, update: SessionInfoUpdate): SessionRow | undefined {
  const next: SessionInfo = { ...stripDerived(row) };
  let changed = false;
  if (update.title !== undefined && update.title !== row.title) {
    next.title = update.title;
    changed = true;
  }
  if (update.updatedAt !== undefined && update.updatedAt !== row.updatedAt) {
    next.updatedAt = update.updatedAt;
    changed = true;
  }
  if (update._meta !== undefined && update._meta !== row._meta) {
    next._meta = update._meta;
    changed = true;
  }
  return changed ? toRow(next) : undefined;
}

/** The `SessionInfo` a row was made from. */
export function stripDerived(row: SessionRow): SessionInfo {
  const { label: _label, untitled: _untitled, updatedAtMs: _ms, ...info } = row;
  return info;
}
