/**
 * Checks a `session/update` payload before anything of ours reads it (the SDK's schema does not
 * see these: see `CHECKED_SESSION_UPDATE`), so a bad update is counted and logged in our channel
 * and can never throw inside the thread's reducer or the session lists.
 * Enum values an older schema does not know (a new tool kind or status) are let through as
 * strings: the thread maps them to a fallback instead of losing the update.
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';

type Rec = Record<string, unknown>;

/** Thrown by the checks below; carries the reason for the log line. */
class Malformed extends Error {}

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(reason: string): never {
  throw new Malformed(reason);
}

function str(o: Rec, key: string): string {
  const v = o[key];
  return typeof v === 'string' ? v : fail(`${key} is not a string`);
}

/** Optional and nullable: the schema gives `null` and absence their own meanings. */
function optStr(o: Rec, key: string): void {
  const v = o[key];
  if (v !== undefined && v !== null && typeof v !== 'string') fail(`${key} is not a string`);
}

function num(o: Rec, key: string): void {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${key} is not a number`);
}

function optNum(o: Rec, key: string): void {
  if (o[key] !== undefined && o[key] !== null) num(o, key);
}

function rec(v: unknown, what: string): Rec {
  return isRec(v) ? v : fail(`${what} is not an object`);
}

/** Checks an array field; `nullable` lets `null` through (update semantics: unchanged). */
function arr(o: Rec, key: string, each: (item: Rec) => void, required: boolean, nullable = false): void {
  const v = o[key];
  if (v === undefined || (v === null && nullable)) {
    if (required) fail(`${key} is missing`);
    return;
  }
  if (!Array.isArray(v)) fail(`${key} is not an array`);
  for (const item of v) each(rec(item, `an item of ${key}`));
}

const blockTypes = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

function block(v: unknown): ContentBlock {
  const b = rec(v, 'content');
  const type = str(b, 'type');
  // The agent's value whole: the log redacts it, then cuts it.
  if (!blockTypes.has(type)) fail(`unknown content type ${JSON.stringify(type)}`);
  switch (type) {
    case 'text':
      str(b, 'text');
      break;
    case 'image':
    case 'audio':
      str(b, 'data');
      str(b, 'mimeType');
      break;
    case 'resource_link':
      str(b, 'uri');
      str(b, 'name');
      break;
    case 'resource':
      str(rec(b.resource, 'resource'), 'uri');
      break;
  }
  return b as ContentBlock;
}

function toolContent(c: Rec): void {
  switch (c.type) {
    case 'content':
      block(c.content);
      break;
    case 'diff':
      str(c, 'path');
      str(c, 'newText');
      optStr(c, 'oldText');
      break;
    case 'terminal':
      str(c, 'terminalId');
      break;
    default:
      fail('unknown tool call content type');
  }
}

function location(l: Rec): void {
  str(l, 'path');
  optNum(l, 'line');
}

function toolFields(u: Rec, isUpdate: boolean): void {
  str(u, 'toolCallId');
  if (isUpdate) optStr(u, 'title');
  else str(u, 'title');
  optStr(u, 'kind');
  optStr(u, 'status');
  arr(u, 'content', toolContent, false, true);
  arr(u, 'locations', location, false, true);
}

function planEntry(e: Rec): void {
  str(e, 'content');
  str(e, 'priority');
  str(e, 'status');
}

function command(c: Rec): void {
  str(c, 'name');
  str(c, 'description');
}

function configOption(c: Rec): void {
  str(c, 'id');
  str(c, 'name');
  str(c, 'type');
}

function message(u: Rec): void {
  block(u.content);
  optStr(u, 'messageId');
}

/** A `session/update` kind, as the SDK's schema names them. */
export type UpdateKind = SessionUpdate['sessionUpdate'];

/**
 * Every `session/update` kind this client reads, each with the check of its shape: the one list
 * of them. Typed by the SDK's union, so a kind the SDK adds fails the build until it has a check
 * here; the wire tap lets through only these ({@link isUpdateKind}), and the thread reduces each.
 */
const CHECKS: { readonly [K in UpdateKind]: (u: Rec) => void } = {
  user_message_chunk: message,
  agent_message_chunk: message,
  agent_thought_chunk: message,
  tool_call: (u) => toolFields(u, false),
  tool_call_update: (u) => toolFields(u, true),
  plan: (u) => arr(u, 'entries', planEntry, true),
  available_commands_update: (u) => arr(u, 'availableCommands', command, true),
  current_mode_update: (u) => void str(u, 'currentModeId'),
  config_option_update: (u) => arr(u, 'configOptions', configOption, true),
  session_info_update: (u) => {
    optStr(u, 'title');
    optStr(u, 'updatedAt');
  },
  usage_update: (u) => {
    num(u, 'used');
    num(u, 'size');
    if (u.cost !== undefined && u.cost !== null) {
      const cost = rec(u.cost, 'cost');
      num(cost, 'amount');
      str(cost, 'currency');
    }
  },
  notice: (u) => {
    str(u, 'severity');
    str(u, 'title');
    optStr(u, 'description');
  },
  compaction_update: (u) => {
    str(u, 'compactionId');
    str(u, 'status');
    optStr(u, 'error');
    if (u.summary !== undefined && u.summary !== null) {
      if (!Array.isArray(u.summary)) fail('summary is not an array');
      u.summary.forEach(block);
    }
  },
  compaction_summary_chunk: (u) => {
    str(u, 'compactionId');
    block(u.content);
  },
};

/** Whether `kind` is a `session/update` kind this client reads. */
export function isUpdateKind(kind: string): kind is UpdateKind {
  return Object.hasOwn(CHECKS, kind);
}

function check(u: Rec, kind: string): void {
  if (!isUpdateKind(kind)) fail(`unknown sessionUpdate ${JSON.stringify(kind)}`);
  CHECKS[kind](u);
}

/**
 * Returns the update typed when it has the shape its `sessionUpdate` kind requires, or the
 * reason it does not. The value is not copied.
 */
export function parseSessionUpdate(raw: unknown): SessionUpdate | string {
  if (!isRec(raw)) return 'not an object';
  const kind = raw.sessionUpdate;
  if (typeof kind !== 'string') return 'sessionUpdate is not a string';
  if (raw._meta !== undefined && raw._meta !== null && !isRec(raw._meta)) return `${kind}: _meta is not an object`;
  try {
    check(raw, kind);
  } catch (e) {
    if (e instanceof Malformed) return `${kind}: ${e.message}`;
    throw e;
  }
  return raw as SessionUpdate;
}
