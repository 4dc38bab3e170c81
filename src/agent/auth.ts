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

/** The methods of `initialize`'s `authMethods`; no `type` means agent-handled. Unknown types are left out. */
export function signInMethods(methods: readonly AuthMethod[]): SignInMethod[] {
  const out: SignInMethod[] = [];
  for (const m of methods) {
    const type = (m as { type?: unknown }).type;
    const base = { id: m.id, name: m.name || m.id, ...(m.description ? { description: m.description } : {}) };
    if (type === undefined || type === null || type === 'agent') {
      out.push({ ...base, kind: 'agent', args: [], env: {} });
    } else if (type === 'env_var') {
      const raw = m as { vars?: unknown; link?: unknown };
      const vars = envVars(raw.vars);
      const link = typeof raw.link === 'string' && /^https:\/\//i.test(raw.link) ? raw.link : undefined;
      if (vars) out.push({ ...base, kind: 'env', args: [], env: {}, vars, ...(link ? { link } : {}) });
    } else if (type === 'terminal') {
      const t = m as Extract<AuthMethod, { type: 'terminal' }>;
      const args = Array.isArray(t.args) ? t.args.filter((a): a is string => typeof a === 'string') : [];
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(t.env ?? {})) if (typeof v === 'string') env[k] = v;
      out.push({ ...base, kind: 'terminal', args, env });
    }
  }
  return out;
}

/**
 * What a terminal method runs: the agent's own program as configured, with the method's
 * `args` appended and its `env` over the agent's (the schema's words: "additional arguments
 * to append to the configured agent invocation"; its env "overrides same-named variables").
 */
export function terminalLaunch(
  config: AgentConfig,
  method: SignInMethod,
): { command: string; args: string[]; env: Record<string, string> } {
  return { command: config.command, args: [...config.args, ...method.args], env: { ...config.env, ...method.env } };
}
