import type { AuthMethod } from '@agentclientprotocol/sdk';
import type { AgentConfig } from './types';

/** One variable an `env_var` method asks the user for. */
export interface SignInVar {
  readonly name: string;
  readonly label?: string;
  /** A password-style input (the default: keys and tokens). */
  readonly secret: boolean;
  readonly optional: boolean;
}

/** One sign-in method as the UI offers it. */
export interface SignInMethod {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /**
   * `agent`: the client calls `authenticate`. `terminal`: the client runs the agent's program.
   * `env`: the user gives values the agent reads from its environment (Codex's "Use
   * OPENAI_API_KEY"): kept in secret storage, the agent restarts with them, then `authenticate`.
   */
  readonly kind: 'agent' | 'terminal' | 'env';
  /**
   * For `terminal`: the program to run instead of the agent's own (a `_meta["terminal-auth"]`
   * method, such as Copilot CLI's `copilot login`); `args` are then its whole arguments.
   */
  readonly command?: string;
  /** For `terminal`: the terminal's name the agent asked for. */
  readonly label?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** For `env`: what to ask for. */
  readonly vars?: readonly SignInVar[];
  /** For `env`: where the user gets the values. */
  readonly link?: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variables of an `env_var` method (a draft method type, not in the SDK's stable schema,
 * that real adapters already send). Undefined when any is malformed: offering half is worse.
 */
function envVars(raw: unknown): SignInVar[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const out: SignInVar[] = [];
  for (const v of raw as unknown[]) {
    const o = v as { name?: unknown; label?: unknown; secret?: unknown; optional?: unknown } | null;
    if (!o || typeof o.name !== 'string' || !ENV_NAME.test(o.name)) return undefined;
    out.push({
      name: o.name,
      ...(typeof o.label === 'string' && o.label.trim() ? { label: o.label.trim() } : {}),
      secret: o.secret !== false,
      optional: o.optional === true,
    });
  }
  return out;
}

function strings(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((a): a is string => typeof a === 'string') : [];
}

function stringRecord(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw && typeof raw === 'object' && !Array.isArray(raw))
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * The command of an agent-typed method that carries `_meta["terminal-auth"]` (`{ command,
 * args, label, env }`), the form Copilot CLI and Zed use for "run this in a terminal": the
 * agent cannot sign in through `authenticate` then. Undefined without a usable command.
 */
function terminalAuthMeta(m: AuthMethod): Pick<SignInMethod, 'command' | 'label' | 'args' | 'env'> | undefined {
  const meta = (m as { _meta?: unknown })._meta;
  const raw = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)['terminal-auth'] : undefined;
  if (!raw || typeof raw !== 'object') return undefined;
  const t = raw as { command?: unknown; args?: unknown; label?: unknown; env?: unknown };
  if (typeof t.command !== 'string' || !t.command.trim()) return undefined;
  const label = typeof t.label === 'string' && t.label.trim() ? t.label.trim() : undefined;
  return { command: t.command, args: strings(t.args), env: stringRecord(t.env), ...(label ? { label } : {}) };
}

/**
 * The methods of `initialize`'s `authMethods`; no `type` means agent-handled, unless the method
 * names a terminal command in `_meta["terminal-auth"]`. Unknown types are left out.
 */
export function signInMethods(methods: readonly AuthMethod[]): SignInMethod[] {
  const out: SignInMethod[] = [];
  for (const m of methods) {
    const type = (m as { type?: unknown }).type;
    const base = { id: m.id, name: m.name || m.id, ...(m.description ? { description: m.description } : {}) };
    if (type === undefined || type === null || type === 'agent') {
      const terminal = terminalAuthMeta(m);
      out.push(terminal ? { ...base, kind: 'terminal', ...terminal } : { ...base, kind: 'agent', args: [], env: {} });
    } else if (type === 'env_var') {
      const raw = m as { vars?: unknown; link?: unknown };
      const vars = envVars(raw.vars);
      const link = typeof raw.link === 'string' && /^https:\/\//i.test(raw.link) ? raw.link : undefined;
      if (vars) out.push({ ...base, kind: 'env', args: [], env: {}, vars, ...(link ? { link } : {}) });
    } else if (type === 'terminal') {
      const t = m as Extract<AuthMethod, { type: 'terminal' }>;
      out.push({ ...base, kind: 'terminal', args: strings(t.args), env: stringRecord(t.env) });
    }
  }
  return out;
}

/**
 * What a terminal method runs: the agent's own program as configured, with the method's
 * `args` appended and its `env` over the agent's (the schema's words: "additional arguments
 * to append to the configured agent invocation"; its env "overrides same-named variables").
 * A `_meta["terminal-auth"]` method names its own program and whole arguments instead.
 */
export function terminalLaunch(
  config: AgentConfig,
  method: SignInMethod,
): { command: string; args: string[]; env: Record<string, string> } {
  const env = { ...config.env, ...method.env };
  if (method.command !== undefined) return { command: method.command, args: [...method.args], env };
  return { command: config.command, args: [...config.args, ...method.args], env };
}

// Characters that make a command read as something else than what runs: controls (a line
// break hides what follows), bidi controls, zero-width characters.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `s` with every character that could hide part of it written as `\uXXXX`. */
function shown(s: string): string {
  return s.replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** A word as the user would type it: quoted when it holds spaces, quotes or hidden characters, those escaped. */
function word(w: string): string {
  return w === '' || /[\s"'\\]/.test(w) || shown(w) !== w ? shown(JSON.stringify(w)) : w;
}

/** What a terminal sign-in will run, in words the user reads before it runs. */
export interface TerminalLaunchText {
  /** The program and its arguments, as one line. */
  readonly commandLine: string;
  /** `NAME=value` for each variable the agent sets, in full: `PATH`, `NODE_OPTIONS` or `BASH_ENV` change what runs. */
  readonly agentEnv: readonly string[];
  /** Names of the variables from the user's own settings (their values may be secrets, so they are not shown). */
  readonly ownEnv: readonly string[];
  /** Whether the program itself is the agent's choice (`_meta["terminal-auth"]`) rather than the configured agent's. */
  readonly agentProgram: boolean;
}

/** Describes {@link terminalLaunch}: everything that decides what runs, nothing left out. */
export function describeTerminalLaunch(config: AgentConfig, method: SignInMethod): TerminalLaunchText {
  const launch = terminalLaunch(config, method);
  return {
    commandLine: [launch.command, ...launch.args].map(word).join(' '),
    agentEnv: Object.entries(method.env).map(([k, v]) => `${shown(k)}=${shown(v)}`),
    ownEnv: Object.keys(config.env)
      .filter((k) => !Object.hasOwn(method.env, k))
      .map(shown),
    agentProgram: method.command !== undefined,
  };
}
