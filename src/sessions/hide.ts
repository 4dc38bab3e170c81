import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { RE2JS as RE2 } from 're2js';
import { MAX_TITLE, sanitizeText } from './title';

/** The setting the rules come from; every error names it. */
export const HIDE_SETTING = 'acp.sessions.hide';

/** `acp.sessions.hide` as the user writes it. */
export interface HideSettings {
  /** Regular expressions (JavaScript syntax, case-insensitive) matched against the agent's title. */
  readonly titlePatterns: readonly string[];
  /** Sessions nobody wrote a message in. */
  readonly noUserMessage: boolean;
  /** Sessions an agent marks in `_meta` as a sub-agent's or a side chain. */
  readonly subAgents: boolean;
}

export const DEFAULT_HIDE: HideSettings = { titlePatterns: [], noUserMessage: true, subAgents: true };

/** A title pattern, compiled for a matcher whose time grows with the title's length, never more. */
export interface TitlePattern {
  test(title: string): boolean;
}

/** The rules, compiled once per settings change. */
export interface HideRules {
  readonly patterns: readonly TitlePattern[];
  readonly noUserMessage: boolean;
  readonly subAgents: boolean;
  /** One sentence per part of the setting that could not be used; the rest still applies. */
  readonly errors: readonly string[];
}

export type HideReason = 'title' | 'noUserMessage' | 'subAgent';

/** Longest pattern compiled: a title pattern is a few words, not a program. */
const MAX_PATTERN = 500;
const MAX_PATTERNS = 100;

/** Reads the setting, keeping every part that is usable and saying what is not. */
export function compileHideRules(raw: unknown): HideRules {
  const errors: string[] = [];
  if (raw === undefined || raw === null) return { ...DEFAULT_HIDE, patterns: [], errors };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ...DEFAULT_HIDE,
      patterns: [],
      errors: [
        `"${HIDE_SETTING}" must be an object with "titlePatterns", "noUserMessage" and "subAgents"; using the defaults.`,
      ],
    };
  }
  const o = raw as Record<string, unknown>;
  const flag = (key: 'noUserMessage' | 'subAgents'): boolean => {
    const v = o[key];
    if (v === undefined) return DEFAULT_HIDE[key];
    if (typeof v === 'boolean') return v;
    errors.push(`"${HIDE_SETTING}.${key}" must be true or false; using ${DEFAULT_HIDE[key]}.`);
    return DEFAULT_HIDE[key];
  };
  const patterns: TitlePattern[] = [];
  const list = o.titlePatterns;
  if (list !== undefined && !Array.isArray(list)) {
    errors.push(`"${HIDE_SETTING}.titlePatterns" must be a list of regular expressions; no title is hidden.`);
  } else if (list) {
    list.slice(0, MAX_PATTERNS).forEach((p: unknown, i) => {
      const where = `"${HIDE_SETTING}.titlePatterns" item ${i + 1}`;
      if (typeof p !== 'string' || p.length === 0)
        return void errors.push(`${where} is not a non-empty string; it is skipped.`);
      if (p.length > MAX_PATTERN)
        return void errors.push(`${where} is longer than ${MAX_PATTERN} characters; it is skipped.`);
      const compiled = compileTitlePattern(p);
      if (typeof compiled === 'string')
        errors.push(`${where}, ${JSON.stringify(p)}, is not a valid regular expression (${compiled}); it is skipped.`);
      else patterns.push(compiled);
    });
    if (list.length > MAX_PATTERNS)
      errors.push(`"${HIDE_SETTING}.titlePatterns" has more than ${MAX_PATTERNS} items; the rest are skipped.`);
  }
  return { patterns, noUserMessage: flag('noUserMessage'), subAgents: flag('subAgents'), errors };
}

let loaded: { RE2JS: typeof RE2 } | undefined;

/**
 * re2js, loaded when a title pattern is first compiled: its start (about 12 ms of tables) is
 * paid by those who have patterns, not by every window's start.
 */
function re2(): { RE2JS: typeof RE2 } {
  // A synchronous load on purpose: the rules are compiled where the settings are read, which
  // is synchronous; the bundler keeps the module's code unrun until this call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('re2js') as { RE2JS: typeof RE2 });
}

/**
 * A title pattern in JavaScript syntax, run by RE2 (re2js): its time grows with the title's
 * length and the pattern's, never exponentially, so `^(.*)*!!` costs what `^.*!!` does where a
 * backtracking engine takes seconds per title and doubles per character. The price: no
 * lookaround and no back-references (RE2 cannot run them in linear time); such a pattern is
 * named as invalid. Returns why it cannot be used, or the compiled pattern.
 */
export function compileTitlePattern(source: string): TitlePattern | string {
  try {
    // JavaScript's own parser first: a pattern the setting's own syntax refuses is said as such.
    new RegExp(source, 'i');
  } catch (e) {
    return e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
  }
  try {
    const { RE2JS } = re2();
    return RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    return `${why}: title patterns run without lookaround or back-references, so that no title can take long`;
  }
}

/** What the caller knows about a row beyond what the agent listed. */
export interface HideContext {
  /** Never hide it: the user named it, created it in this window, or has its chat open. */
  readonly keep: boolean;
  /**
   * Some session of the same list has a title. Only then does a missing title say "nobody
   * wrote here" (agents title a session by its first prompt); an agent that titles nothing
   * gets none of its sessions hidden for it.
   */
  readonly agentTitles: boolean;
}

/** Why the rules hide a session, or `undefined` when they show it. */
export function hideReason(info: SessionInfo, rules: HideRules, ctx: HideContext): HideReason | undefined {
  if (ctx.keep) return undefined;
  if (rules.subAgents && subAgentMark(info._meta)) return 'subAgent';
  if (rules.noUserMessage && hasNoUserMessage(info, ctx.agentTitles)) return 'noUserMessage';
  if (rules.patterns.length > 0 && typeof info.title === 'string') {
    // Matched against the title as shown: one line, cleaned, capped (a 500 KB title costs no more).
    const title = sanitizeText(info.title.slice(0, 4 * MAX_TITLE));
    if (title && rules.patterns.some((p) => p.test(title))) return 'title';
  }
  return undefined;
}

// The marks agents use, as their own data names them: Claude Code's transcripts carry
// `isSidechain` on every entry of a sub-agent's side chain; Codex's threads carry a session
// `source` of `subAgent` (or an object keyed `subAgent`, with variants such as
// `subAgentReview`). Today's adapters leave such sessions out of `session/list` themselves;
// these rules catch agents that list them with the mark in `_meta`, at the top level or under
// a vendor key (`_meta.claudeCode.isSidechain`).
const FLAG_KEYS = new Set(['issidechain', 'sidechain', 'issubagent', 'subagent']);
const PARENT_KEYS = new Set(['parentsessionid', 'parentsession', 'parentthreadid']);
const SOURCE_KEYS = new Set(['source', 'sessionsource', 'kind', 'sessionkind', 'type', 'sessiontype']);
const MAX_KEYS = 50;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
const isSubAgentWord = (s: string) => {
  const w = squash(s);
  return w.startsWith('subagent') || w === 'sidechain';
};

/** The `_meta` key that marks a session as a sub-agent's or a side chain, or `undefined`. */
export function subAgentMark(meta: unknown, depth = 0): string | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  let seen = 0;
  for (const [key, value] of Object.entries(meta)) {
    if (++seen > MAX_KEYS) break;
    const k = squash(key);
    if (FLAG_KEYS.has(k) && value === true) return key;
    if (PARENT_KEYS.has(k) && typeof value === 'string' && value.length > 0) return key;
    if (SOURCE_KEYS.has(k)) {
      if (typeof value === 'string' && isSubAgentWord(value)) return key;
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        if (Object.keys(value).slice(0, MAX_KEYS).some(isSubAgentWord)) return key;
      }
    }
    if (depth === 0 && typeof value === 'object') {
      const inner = subAgentMark(value, 1);
      if (inner) return `${key}.${inner}`;
    }
  }
  return undefined;
}

// Counts agents put in `_meta`: the reference agent's `messageCount`, and the usual spellings.
const COUNT_KEYS = new Set([
  'messagecount',
  'usermessagecount',
  'usermessages',
  'turns',
  'turncount',
  'numturns',
  'promptcount',
]);

/** A count of messages or turns in `_meta` (top level or under a vendor key), if the agent gives one. */
export function messageCount(meta: unknown, depth = 0): number | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  let seen = 0;
  for (const [key, value] of Object.entries(meta)) {
    if (++seen > MAX_KEYS) break;
    if (COUNT_KEYS.has(squash(key)) && typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
    if (depth === 0 && typeof value === 'object') {
      const inner = messageCount(value, 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function hasNoUserMessage(info: SessionInfo, agentTitles: boolean): boolean {
  const count = messageCount(info._meta);
  if (count !== undefined) return count === 0;
  const untitled = typeof info.title !== 'string' || info.title.trim().length === 0;
  return untitled && agentTitles;
}
