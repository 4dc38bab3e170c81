import type {
  InitializeResponse,
  NewSessionResponse,
  SessionConfigOption,
  SessionConfigSelectGroup,
  SessionConfigSelectOption,
  SessionMode,
  SessionModeState,
  SetSessionConfigOptionResponse,
} from '@agentclientprotocol/sdk';
import type { ListedSession, ListPage } from './types';
import type { ForkSessionResponse } from './unstable';

/**
 * The SDK does not validate what an agent answers on the client side, so every result is
 * checked here before anything else trusts it. These return a message for a wrong shape.
 */

/** A JSON object (not an array, not null). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Absolute on POSIX or Windows (`C:\`, `\\server\share`). */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

/** Where a check says what it dropped (the connection logs it). */
export type Note = (line: string) => void;
const quiet: Note = () => {};

/**
 * Checks a `session/list` result: a page without a `sessions` array throws; bad entries are
 * dropped and counted; a `nextCursor` that is not a string keeps the rows and ends paging.
 */
export function validateListResult(result: unknown): ListPage {
  if (!isRecord(result)) throw new ShapeError('session/list returned no result object');
  if (!Array.isArray(result.sessions)) throw new ShapeError('session/list returned no "sessions" array');
  const sessions: ListedSession[] = [];
  let dropped = 0;
  for (const raw of result.sessions) {
    const s = validateSessionInfo(raw);
    if (s) sessions.push(s);
    else dropped++;
  }
  const { nextCursor } = result;
  if (nextCursor !== undefined && nextCursor !== null && typeof nextCursor !== 'string') {
    // A cursor of the wrong type cannot be sent back; the page's rows are still good.
    const kind = Array.isArray(nextCursor)
      ? 'an array'
      : typeof nextCursor === 'object'
        ? 'an object'
        : `a ${typeof nextCursor}`;
    return {
      sessions,
      nextCursor: undefined,
      dropped,
      badCursor: true,
      pagingStopped: `the agent sent a "nextCursor" that is not a string (${kind}), so paging stopped after this page`,
    };
  }
  return { sessions, nextCursor: nextCursor === null || nextCursor === '' ? undefined : nextCursor, dropped };
}

/**
 * One listed session. Required: a non-empty string id and an absolute cwd. Optional fields of
 * the wrong type are dropped rather than failing the row.
 */
export function validateSessionInfo(raw: unknown): ListedSession | undefined {
  if (!isRecord(raw)) return undefined;
  const { sessionId, cwd } = raw;
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 1024) return undefined;
  if (typeof cwd !== 'string' || !isAbsolutePath(cwd)) return undefined;
  const info: ListedSession = { sessionId, cwd };
  if (typeof raw.title === 'string' || raw.title === null) info.title = raw.title;
  if (typeof raw.updatedAt === 'string' || raw.updatedAt === null) info.updatedAt = raw.updatedAt;
  if (Array.isArray(raw.additionalDirectories)) {
    info.additionalDirectories = raw.additionalDirectories.filter(
      (d): d is string => typeof d === 'string' && isAbsolutePath(d),
    );
  }
  if (isRecord(raw._meta)) info._meta = raw._meta;
  // Unstable: agents with the archive capability say on every row whether it is archived.
  if (typeof raw.archived === 'boolean') info.archived = raw.archived;
  const meta = isRecord(raw._meta) ? raw._meta : {};
  const aliases = Array.isArray(raw.aliases) ? raw.aliases : Array.isArray(meta.aliases) ? meta.aliases : undefined;
  if (aliases) {
    const ids = aliases.filter(
      (a): a is string => typeof a === 'string' && a.length > 0 && a.length <= 1024 && a !== sessionId,
    );
    if (ids.length) info.aliases = [...new Set(ids)].slice(0, MAX_ALIASES);
  }
  const forkedFrom = raw.forkedFrom ?? meta.forkedFrom;
  if (typeof forkedFrom === 'string' && forkedFrom.length > 0 && forkedFrom.length <= 1024 && forkedFrom !== sessionId)
    info.forkedFrom = forkedFrom;
  return info;
}

/** Other ids of one conversation kept per row: a hostile list costs no more than this. */
const MAX_ALIASES = 32;

export function validateInitializeResult(result: unknown): InitializeResponse {
  if (!isRecord(result)) throw new ShapeError('initialize returned no result object');
  if (typeof result.protocolVersion !== 'number') throw new ShapeError('initialize returned no protocol version');
  if (result.agentCapabilities !== undefined && !isRecord(result.agentCapabilities)) {
    throw new ShapeError('initialize returned "agentCapabilities" that is not an object');
  }
  if (result.authMethods !== undefined && !Array.isArray(result.authMethods)) {
    throw new ShapeError('initialize returned "authMethods" that is not an array');
  }
  return result as InitializeResponse;
}

export function validateNewSessionResult(result: unknown, note: Note = quiet): NewSessionResponse {
  return createdSession('session/new', result, note) as NewSessionResponse;
}

/** The `session/fork` result: like `session/new`'s, the new session's id and its setup. */
export function validateForkResult(result: unknown, note: Note = quiet): ForkSessionResponse {
  return createdSession('session/fork', result, note) as ForkSessionResponse;
}

function createdSession(method: string, result: unknown, note: Note): Record<string, unknown> {
  if (!isRecord(result) || typeof result.sessionId !== 'string' || result.sessionId.length === 0) {
    throw new ShapeError(`${method} returned no session id`);
  }
  if (result.sessionId.length > 1024) throw new ShapeError(`${method} returned a session id over 1024 characters`);
  return checkSetupParts(result, note);
}

/**
 * The title a `session/set_title` result says the agent stored ("Clients SHOULD display this
 * value rather than the one they sent"). An agent that answers without one (an earlier draft
 * answered `{}`) stored what was sent, as far as anyone can tell: that is shown, with a note.
 */
export function validateSetTitleResult(result: unknown, sent: string, note: Note = quiet): string {
  const title = isRecord(result) ? result.title : undefined;
  if (typeof title === 'string' && title.trim().length > 0) return title;
  note(
    title === undefined
      ? 'the result names no stored title; showing the one sent'
      : 'the result\'s "title" is not a non-empty string; showing the one sent',
  );
  return sent;
}

/** Results that carry nothing (archive, unarchive): anything but an object or null is noted, never fatal. */
export function checkEmptyResult(result: unknown, note: Note = quiet): void {
  if (result !== null && result !== undefined && !isRecord(result)) note('the result is not an object; ignored');
}

/** Load and resume results carry optional modes and config options; keep only what is usable. */
export function validateSetupResult<T extends object>(method: string, result: unknown, note: Note = quiet): T {
  if (result === null || result === undefined) return {} as T;
  if (!isRecord(result)) throw new ShapeError(`${method} returned a result that is not an object`);
  return checkSetupParts(result, note) as T;
}

/** The `session/set_config_option` result: the options as they now are, malformed ones dropped. */
export function validateConfigOptionResult(result: unknown, note: Note = quiet): SetSessionConfigOptionResponse {
  if (!isRecord(result)) {
    note('the result is not an object; the options shown stay as they were');
    return {} as SetSessionConfigOptionResponse;
  }
  return checkSetupParts(result, note) as SetSessionConfigOptionResponse;
}

/** A copy of a result whose `modes` and `configOptions` are either usable or gone. */
function checkSetupParts(result: Record<string, unknown>, note: Note): Record<string, unknown> {
  const out = { ...result };
  if (out.modes !== undefined && out.modes !== null) {
    const modes = validateModes(out.modes, note);
    if (modes) out.modes = modes;
    else delete out.modes;
  }
  if (out.configOptions !== undefined && out.configOptions !== null) {
    const options = validateConfigOptions(out.configOptions, note);
    if (options) out.configOptions = options;
    else delete out.configOptions;
  }
  return out;
}

const optText = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const named = (v: unknown, key: string): v is Record<string, unknown> =>
  isRecord(v) &&
  typeof v[key] === 'string' &&
  (v[key] as string).length > 0 &&
  typeof v.name === 'string' &&
  optText(v.description);

/** `modes`: a current id and a list of `{ id, name }`; bad modes are dropped, an unusable state goes whole. */
export function validateModes(raw: unknown, note: Note = quiet): SessionModeState | undefined {
  if (!isRecord(raw) || typeof raw.currentModeId !== 'string' || !Array.isArray(raw.availableModes)) {
    note('dropped "modes": it needs a "currentModeId" string and an "availableModes" array');
    return undefined;
  }
  const availableModes = raw.availableModes.filter((m): m is SessionMode => named(m, 'id'));
  if (availableModes.length < raw.availableModes.length) {
    note(
      `dropped ${raw.availableModes.length - availableModes.length} of ${raw.availableModes.length} modes without a string "id" and "name"`,
    );
  }
  if (availableModes.length === 0) {
    note('dropped "modes": no usable mode is left');
    return undefined;
  }
  return { ...raw, currentModeId: raw.currentModeId, availableModes };
}

/** `configOptions`: select options with their values, or booleans; anything else is dropped. */
export function validateConfigOptions(raw: unknown, note: Note = quiet): SessionConfigOption[] | undefined {
  if (!Array.isArray(raw)) {
    note('dropped "configOptions": it is not an array');
    return undefined;
  }
  const out: SessionConfigOption[] = [];
  for (const o of raw) {
    const checked = validateConfigOption(o);
    if (typeof checked === 'string') note(`dropped a config option: ${checked}`);
    else out.push(checked);
  }
  return out;
}

/** One option, or why it cannot be used. */
function validateConfigOption(o: unknown): SessionConfigOption | string {
  if (!named(o, 'id')) return 'it needs a string "id" and "name"';
  if (!optText(o.category)) return `"${o.id}" has a "category" that is not a string`;
  if (o.type === 'boolean') {
    return typeof o.currentValue === 'boolean'
      ? (o as SessionConfigOption)
      : `"${o.id}" is a boolean without a true or false "currentValue"`;
  }
  if (o.type !== 'select') return `"${o.id}" has an unknown type ${JSON.stringify(o.type) ?? 'undefined'}`;
  if (typeof o.currentValue !== 'string') return `"${o.id}" has no string "currentValue"`;
  if (!Array.isArray(o.options)) return `"${o.id}" has no "options" array`;
  const grouped = o.options.length > 0 && o.options.every((g) => isRecord(g) && 'group' in g);
  const options = grouped
    ? o.options
        .filter((g): g is SessionConfigSelectGroup => named(g, 'group') && Array.isArray(g.options))
        .map((g) => ({ ...g, options: g.options.filter((v): v is SessionConfigSelectOption => named(v, 'value')) }))
        .filter((g) => g.options.length > 0)
    : o.options.filter((v): v is SessionConfigSelectOption => named(v, 'value'));
  if (options.length === 0) return `"${o.id}" has no usable values`;
  return { ...o, options } as SessionConfigOption;
}
