import { parseMcpServers } from './mcp';
import type { AgentConfig, RegistryMark } from './types';

/** A settings entry that could not be used, with the reason for the user. */
export interface ConfigProblem {
  readonly index: number;
  readonly message: string;
}

const ID = /^[A-Za-z0-9._-]+$/;

/**
 * Reads `acp.agents` as the user wrote it. Entries of the wrong shape are reported, not
 * guessed at; duplicate ids keep the first.
 */
export function parseAgents(raw: unknown): { agents: AgentConfig[]; problems: ConfigProblem[] } {
  const agents: AgentConfig[] = [];
  const problems: ConfigProblem[] = [];
  if (raw === undefined || raw === null) return { agents, problems };
  if (!Array.isArray(raw)) {
    return { agents, problems: [{ index: -1, message: 'acp.agents must be an array of agents.' }] };
  }
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const bad = (message: string) => problems.push({ index, message: `acp.agents[${index}]: ${message}` });
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return bad('must be an object.');
    const e = entry as Record<string, unknown>;
    if (typeof e.id !== 'string' || !ID.test(e.id)) return bad('"id" must be letters, digits, ".", "_" or "-".');
    if (seen.has(e.id)) return bad(`the id "${e.id}" is used twice; the first entry wins.`);
    if (typeof e.command !== 'string' || e.command.trim() === '') return bad('"command" must be a non-empty string.');
    if (e.args !== undefined && (!Array.isArray(e.args) || e.args.some((a) => typeof a !== 'string'))) {
      return bad('"args" must be an array of strings.');
    }
    const env: Record<string, string> = {};
    if (e.env !== undefined) {
      if (typeof e.env !== 'object' || e.env === null || Array.isArray(e.env)) return bad('"env" must be an object.');
      for (const [k, v] of Object.entries(e.env)) {
        if (typeof v !== 'string') return bad(`"env.${k}" must be a string.`);
        env[k] = v;
      }
    }
    if (e.name !== undefined && typeof e.name !== 'string') return bad('"name" must be a string.');
    for (const flag of ['allowFileWrites', 'allowTerminals'] as const) {
      if (e[flag] !== undefined && typeof e[flag] !== 'boolean') return bad(`"${flag}" must be true or false.`);
    }
    // A bad MCP entry costs that server, not the agent.
    const mcp = parseMcpServers(e.mcpServers, `acp.agents[${index}].mcpServers`);
    for (const message of mcp.problems) problems.push({ index, message });
    // A bad registry mark costs the offer of updates, not the agent.
    const registry = registryMark(e.registry);
    if (e.registry !== undefined && !registry)
      problems.push({
        index,
        message: `acp.agents[${index}]: "registry" is not { id, version, distribution }; no update is offered for it.`,
      });
    seen.add(e.id);
    agents.push({
      id: e.id,
      name: typeof e.name === 'string' && e.name.trim() ? e.name.trim() : e.id,
      command: e.command,
      args: (e.args as string[] | undefined) ?? [],
      env,
      mcpServers: mcp.servers,
      allowFileWrites: e.allowFileWrites !== false,
      allowTerminals: e.allowTerminals !== false,
      ...(registry ? { registry } : {}),
    });
  });
  return { agents, problems };
}

/** The registry mark of an entry, if it has a well-formed one (its id can name a folder). */
function registryMark(raw: unknown): RegistryMark | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || !/^[a-z][a-z0-9-]{0,63}$/.test(r.id)) return undefined;
  if (typeof r.version !== 'string' || !/^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]{0,64}$/.test(r.version))
    return undefined;
  if (r.distribution !== 'npx' && r.distribution !== 'uvx' && r.distribution !== 'binary') return undefined;
  return { id: r.id, version: r.version, distribution: r.distribution };
}

/**
 * Whether two configurations start the same process (a change restarts the agent). MCP
 * servers are not part of the launch: they are read from the settings at each session setup.
 */
export function sameLaunch(a: AgentConfig, b: AgentConfig): boolean {
  return (
    a.command === b.command &&
    a.name === b.name &&
    a.args.length === b.args.length &&
    a.args.every((x, i) => x === b.args[i]) &&
    a.allowFileWrites === b.allowFileWrites &&
    a.allowTerminals === b.allowTerminals &&
    JSON.stringify(Object.entries(a.env).sort()) === JSON.stringify(Object.entries(b.env).sort())
  );
}
