import type { SecretStore, ValueStore } from './stores';

/** Where the values an agent's `env_var` sign-in method asked for are kept, one entry per agent. */
const SECRET_PREFIX = 'acp.signInEnv.';
/** Which agents have such an entry (`true`) or are known to have none (`false`). */
const INDEX_KEY = 'acp.signInEnvAgents';

type Index = Readonly<Record<string, boolean>>;

/**
 * The values an `env_var` sign-in stored per agent, in secret storage. Every agent start needs
 * them, and reading secret storage is a round trip to the workbench (in a browser, through its
 * main thread; on the desktop, to the system keychain), 90–270 ms before a cold start in the
 * benchmark's window with nothing stored. An index in global state says which agents have values, so a start reads
 * secret storage only for those. An agent the index does not know yet (values stored by an
 * earlier version) is read once and recorded.
 */
export class SignInEnvStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly state: ValueStore,
  ) {}

  /** The stored values, or undefined when there are none (or they are unreadable). */
  async get(agentId: string): Promise<Record<string, string> | undefined> {
    if (this.index()[agentId] === false) return undefined;
    const raw = await this.secrets.get(SECRET_PREFIX + agentId);
    if (this.index()[agentId] === undefined) await this.record(agentId, !!raw);
    return raw ? parseValues(raw) : undefined;
  }

  async store(agentId: string, values: Readonly<Record<string, string>>): Promise<void> {
    await this.secrets.store(SECRET_PREFIX + agentId, JSON.stringify(values));
    await this.record(agentId, true);
  }

  /** Forgets the agent's values; true when there were some. */
  async forget(agentId: string): Promise<boolean> {
    const had = (await this.get(agentId)) !== undefined;
    if (had) await this.secrets.delete(SECRET_PREFIX + agentId);
    await this.record(agentId, false);
    return had;
  }

  private index(): Index {
    const value = this.state.get(INDEX_KEY);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Index) : {};
  }

  private async record(agentId: string, has: boolean): Promise<void> {
    if (this.index()[agentId] === has) return;
    await this.state.update(INDEX_KEY, { ...this.index(), [agentId]: has });
  }
}

/** A JSON object of strings; anything else is treated as nothing stored. */
function parseValues(raw: string): Record<string, string> | undefined {
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return undefined;
  }
}
