import { MissingSecret } from './errors';
import type { AgentConfig } from './types';

/** Reads one secret by name (VS Code's `SecretStorage` in the extension, a map in tests). */
export type SecretLookup = (name: string) => Promise<string | undefined>;

/** `${secret:NAME}`: NAME is letters, digits, ".", "_" or "-". */
const REF = /\$\{secret:([A-Za-z0-9._-]+)\}/g;

/** The secret names a value refers to. */
export function secretRefs(value: string): string[] {
  return [...value.matchAll(REF)].map((m) => m[1]!);
}

/**
 * Replaces every `${secret:NAME}` in `value`. Also returns the secrets it used, so the caller
 * can add them to the log's redaction list.
 */
export async function resolveSecretRefs(
  value: string,
  lookup: SecretLookup,
  where: string,
): Promise<{ value: string; used: string[] }> {
  const names = secretRefs(value);
  if (names.length === 0) return { value, used: [] };
  const found = new Map<string, string>();
  for (const name of new Set(names)) {
    const secret = await lookup(name);
    if (secret === undefined || secret === '') throw new MissingSecret(name, where);
    found.set(name, secret);
  }
  return { value: value.replace(REF, (_, name: string) => found.get(name)!), used: [...found.values()] };
}

/** Resolves the secrets of an agent's `env`, at start; settings keep only the references. */
export async function resolveAgentEnv(
  config: AgentConfig,
  lookup: SecretLookup,
): Promise<{ config: AgentConfig; secrets: string[] }> {
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [key, raw] of Object.entries(config.env)) {
    const { value, used } = await resolveSecretRefs(raw, lookup, `${config.name} (env.${key})`);
    env[key] = value;
    secrets.push(...used);
  }
  return { config: { ...config, env }, secrets };
}

/** Every secret name the agents' settings refer to (offered by "Set Agent Secret"). */
export function referencedSecrets(values: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const v of values) for (const n of secretRefs(v)) names.add(n);
  return [...names].sort();
}

/**
 * Adds what the user gave an `env_var` sign-in method (kept in secret storage, not in settings)
 * over the agent's configured `env`: the later, explicit choice wins. Every value is a secret.
 */
export function withSignInEnv(
  launch: { config: AgentConfig; secrets: readonly string[] },
  signInEnv: Readonly<Record<string, string>> | undefined,
): { config: AgentConfig; secrets: string[] } {
  const values = Object.values(signInEnv ?? {}).filter((v) => v !== '');
  if (!signInEnv || values.length === 0) return { config: launch.config, secrets: [...launch.secrets] };
  return {
    config: { ...launch.config, env: { ...launch.config.env, ...signInEnv } },
    secrets: [...launch.secrets, ...values],
  };
}
