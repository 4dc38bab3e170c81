import { isAbsolute } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentFeatures } from './capabilities';
import type { Logger } from './log';
import { MissingSecret } from './errors';
import { resolveSecretRefs, type SecretLookup } from './secrets';

/** Parsed MCP servers and the entries that could not be used, with the reason. */
export interface McpParse {
  readonly servers: McpServer[];
  readonly problems: string[];
}

const kindOf = (s: McpServer): 'stdio' | 'http' | 'sse' =>
  'type' in s && (s.type === 'http' || s.type === 'sse') ? s.type : 'stdio';

/** `{ KEY: "v" }` or `[{ name, value }]` (the wire's shape), as the wire's shape. */
function pairs(raw: unknown, field: string, bad: (m: string) => void): { name: string; value: string }[] | undefined {
  if (raw === undefined) return [];
  if (Array.isArray(raw)) {
    const out: { name: string; value: string }[] = [];
    for (const p of raw) {
      const e = p as { name?: unknown; value?: unknown } | null;
      if (!e || typeof e.name !== 'string' || typeof e.value !== 'string')
        return void bad(`"${field}" entries need a string "name" and "value".`);
      out.push({ name: e.name, value: e.value });
    }
    return out;
  }
  if (typeof raw !== 'object' || raw === null) return void bad(`"${field}" must be an object of strings.`);
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') return void bad(`"${field}.${name}" must be a string.`);
    out.push({ name, value });
  }
  return out;
}

/**
 * Reads MCP server definitions as the user wrote them (`acp.mcpServers`, or an agent's
 * `mcpServers`). Bad entries are reported and skipped; a repeated name keeps the first.
 */
export function parseMcpServers(raw: unknown, where: string): McpParse {
  const servers: McpServer[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { servers, problems };
  if (!Array.isArray(raw)) return { servers, problems: [`${where} must be an array of MCP servers.`] };
  const seen = new Set<string>();
  raw.forEach((entry: unknown, i) => {
    const bad = (m: string) => problems.push(`${where}[${i}]: ${m} This MCP server is skipped.`);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return bad('must be an object.');
    const e = entry as Record<string, unknown>;
    if (typeof e.name !== 'string' || !e.name.trim()) return bad('"name" must be a non-empty string.');
    if (seen.has(e.name)) return bad(`the name "${e.name}" is used twice; the first entry wins.`);
    const type = e.type ?? 'stdio';
    if (type === 'stdio') {
      if (typeof e.command !== 'string' || !isAbsolute(e.command))
        return bad('"command" must be an absolute path (the agent starts it; PATH is not searched).');
      if (e.args !== undefined && (!Array.isArray(e.args) || e.args.some((a) => typeof a !== 'string')))
        return bad('"args" must be an array of strings.');
      const env = pairs(e.env, 'env', bad);
      if (!env) return;
      servers.push({ name: e.name, command: e.command, args: (e.args as string[] | undefined) ?? [], env });
    } else if (type === 'http' || type === 'sse') {
      let url: URL | undefined;
      try {
        url = typeof e.url === 'string' ? new URL(e.url) : undefined;
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        return bad('"url" must be an http or https URL.');
      const headers = pairs(e.headers, 'headers', bad);
      if (!headers) return;
      servers.push({ type, name: e.name, url: e.url as string, headers });
    } else {
      return bad('"type" must be "stdio", "http" or "sse".');
    }
    seen.add(e.name);
  });
  return { servers, problems };
}

/** The window's servers with an agent's own: an agent's entry replaces one of the same name. */
export function mergeMcpServers(global: readonly McpServer[], perAgent: readonly McpServer[]): McpServer[] {
  const own = new Map(perAgent.map((s) => [s.name, s]));
  return [
    ...global.map((s) => own.get(s.name) ?? s),
    ...perAgent.filter((s) => !global.some((g) => g.name === s.name)),
  ];
}

/**
 * Chooses and resolves the servers sent to one agent on `session/new`, `load` and `resume`.
 * HTTP and SSE go only to agents that advertise `mcpCapabilities.http` / `.sse` (a protocol
 * rule); each skip is logged once per agent and server, not on every session.
 */
export class McpSelector {
  private readonly logged = new Set<string>();

  constructor(private readonly logger: Logger) {}

  async select(
    agent: { id: string; name: string },
    features: AgentFeatures,
    servers: readonly McpServer[],
    lookup: SecretLookup,
  ): Promise<{ servers: McpServer[]; secrets: string[] }> {
    const out: McpServer[] = [];
    const secrets: string[] = [];
    for (const s of servers) {
      const kind = kindOf(s);
      if ((kind === 'http' && !features.mcpHttp) || (kind === 'sse' && !features.mcpSse)) {
        this.once(
          `${agent.id}\0${s.name}\0${kind}`,
          `MCP server "${s.name}" (${kind}) is not sent to ${agent.name}: the agent does not advertise mcpCapabilities.${kind}.`,
        );
        continue;
      }
      try {
        const r = await resolveServer(s, lookup);
        out.push(r.server);
        secrets.push(...r.used);
      } catch (e) {
        if (!(e instanceof MissingSecret)) throw e;
        this.once(
          `${agent.id}\0${s.name}\0secret`,
          `MCP server "${s.name}" is not sent to ${agent.name}: ${e.message} (run "ACP: Set Agent Secret").`,
        );
      }
    }
    return { servers: out, secrets };
  }

  private once(key: string, line: string): void {
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.logger.warn(line);
  }
}

/** Replaces `${secret:NAME}` in a server's env values and header values; `used` lists the secrets. */
export async function resolveServer(
  s: McpServer,
  lookup: SecretLookup,
): Promise<{ server: McpServer; used: string[] }> {
  const used: string[] = [];
  const resolve = (list: readonly { name: string; value: string }[], field: string) =>
    Promise.all(
      list.map(async (p) => {
        const r = await resolveSecretRefs(p.value, lookup, `MCP server "${s.name}" (${field}.${p.name})`);
        used.push(...r.used);
        return { name: p.name, value: r.value };
      }),
    );
  if ('type' in s && (s.type === 'http' || s.type === 'sse'))
    return { server: { ...s, headers: await resolve(s.headers, 'headers') }, used };
  const stdio = s as Extract<McpServer, { command: string }>;
  return { server: { ...stdio, env: await resolve(stdio.env, 'env') }, used };
}

/** Where the current MCP settings come from (read at each session setup, so edits apply to the next one). */
export interface McpSource {
  global(): readonly McpServer[];
  /** The agent's own `mcpServers` in the current settings. */
  perAgent(agentId: string): readonly McpServer[];
  lookup: SecretLookup;
}

/**
 * The `mcpServers` of each `session/new`, `session/load` and `session/resume` for a connection:
 * the window's servers merged with the agent's, filtered by its capabilities, secrets resolved
 * (and added to the connection's redaction list).
 */
export function mcpServersFor(source: McpSource, selector: McpSelector) {
  return async (c: {
    config: { id: string; name: string };
    features: AgentFeatures;
    redactAlso(values: readonly string[]): void;
  }): Promise<McpServer[]> => {
    const merged = mergeMcpServers(source.global(), source.perAgent(c.config.id));
    const { servers, secrets } = await selector.select(c.config, c.features, merged, source.lookup);
    c.redactAlso(secrets);
    return servers;
  };
}
