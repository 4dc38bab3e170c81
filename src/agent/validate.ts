import type { InitializeResponse, NewSessionResponse, SessionInfo } from '@agentclientprotocol/sdk';
import type { ListPage } from './types';

/**
 * The SDK does not validate what an agent answers on the client side, so every result is
 * checked here before anything else trusts it. These return a message for a wrong shape.
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Absolute on POSIX or Windows (`C:\`, `\\server\share`). */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

/** Checks a `session/list` result: a bad page throws; bad entries are dropped and counted. */
export function validateListResult(result: unknown): ListPage {
  if (!isRecord(result)) throw new ShapeError('session/list returned no result object');
  if (!Array.isArray(result.sessions)) throw new ShapeError('session/list returned no "sessions" array');
  const { nextCursor } = result;
  // A cursor of the wrong type cannot be sent back; the page's rows are still good.
  const badCursor = nextCursor !== undefined && nextCursor !== null && typeof nextCursor !== 'string';
  const sessions: SessionInfo[] = [];
  let dropped = 0;
  for (const raw of result.sessions) {
    const s = validateSessionInfo(raw);
    if (s) sessions.push(s);
    else dropped++;
  }
  if (badCursor) return { sessions, nextCursor: undefined, dropped, badCursor: true };
  return { sessions, nextCursor: typeof nextCursor === 'string' && nextCursor !== '' ? nextCursor : undefined, dropped };
}

/**
 * One listed session. Required: a non-empty string id and an absolute cwd. Optional fields of
 * the wrong type are dropped rather than failing the row.
 */
export function validateSessionInfo(raw: unknown): SessionInfo | undefined {
  if (!isRecord(raw)) return undefined;
  const { sessionId, cwd } = raw;
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 1024) return undefined;
  if (typeof cwd !== 'string' || !isAbsolutePath(cwd)) return undefined;
  const info: SessionInfo = { sessionId, cwd };
  if (typeof raw.title === 'string' || raw.title === null) info.title = raw.title;
  if (typeof raw.updatedAt === 'string' || raw.updatedAt === null) info.updatedAt = raw.updatedAt;
  if (Array.isArray(raw.additionalDirectories)) {
    info.additionalDirectories = raw.additionalDirectories.filter(
      (d): d is string => typeof d === 'string' && isAbsolutePath(d),
    );
  }
  if (isRecord(raw._meta)) info._meta = raw._meta;
  return info;
}

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

export function validateNewSessionResult(result: unknown): NewSessionResponse {
  if (!isRecord(result) || typeof result.sessionId !== 'string' || result.sessionId.length === 0) {
    throw new ShapeError('session/new returned no session id');
  }
  return result as NewSessionResponse;
}

/** Load and resume results carry optional modes and config options; keep only what is usable. */
export function validateSetupResult<T extends object>(method: string, result: unknown): T {
  if (result === null || result === undefined) return {} as T;
  if (!isRecord(result)) throw new ShapeError(`${method} returned a result that is not an object`);
  const out = { ...result };
  if (out.modes !== undefined && out.modes !== null) {
    const m = out.modes;
    if (!isRecord(m) || typeof m.currentModeId !== 'string' || !Array.isArray(m.availableModes)) delete out.modes;
  }
  if (out.configOptions !== undefined && out.configOptions !== null && !Array.isArray(out.configOptions)) {
    delete out.configOptions;
  }
  return out as T;
}
