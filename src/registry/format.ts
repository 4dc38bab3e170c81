/**
 * The ACP Registry's `registry.json` as this client reads it (the registry repository's FORMAT.md
 * and `agent.schema.json`): `{ version, agents: [...] }`, each agent with `id`, `name`, `version`,
 * `description` and a `distribution` of `npx`, `uvx` and per-platform `binary` targets.
 *
 * Nothing of it is trusted. A document that is not JSON, too large, or of a format version this
 * client does not know is refused whole, with the reason; an entry that lacks a field or holds
 * one of the wrong shape is kept as unavailable, with the reason, so the picker can show it
 * without offering it. An id must be the schema's `^[a-z][a-z0-9-]*$`: it names a folder on disk.
 */

/** The platform keys of the format, `<os>-<arch>`. */
export const PLATFORM_KEYS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

/** A package run by a launcher (`npx`, `uvx`): its name, pinned or not, and what it is given. */
export interface PackageDistribution {
  readonly package: string;
  /** A program of the package other than its default one (`npx --package <package> <cmd>`). */
  readonly cmd?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** One platform's download: an archive (or the program itself) and the program inside it. */
export interface BinaryTarget {
  readonly archive: string;
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the download, when the registry gives one. */
  readonly sha256?: string;
}

export interface Distribution {
  readonly npx?: PackageDistribution;
  readonly uvx?: PackageDistribution;
  readonly binary?: Readonly<Partial<Record<PlatformKey, BinaryTarget>>>;
}

/** One agent of the registry, checked. */
export interface RegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly icon?: string;
  readonly repository?: string;
  readonly website?: string;
  readonly license?: string;
  readonly distribution: Distribution;
}

/** An entry that cannot be offered, and why (its id and name when it has usable ones). */
export interface UnavailableAgent {
  readonly id?: string;
  readonly name?: string;
  readonly why: string;
}

export interface ParsedRegistry {
  /** The format version the document declares. */
  readonly version: string;
  readonly agents: readonly RegistryAgent[];
  readonly unavailable: readonly UnavailableAgent[];
}

export type RegistryParse =
  { readonly ok: true; readonly registry: ParsedRegistry } | { readonly ok: false; readonly why: string };

/** The format's major version this client reads; a document of a later one is refused whole. */
export const FORMAT_MAJOR = 1;
/** The largest `registry.json` read (the published one is a few tens of KB). */
export const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;
/** Entries past this are not read: a list this long is not a registry. */
const MAX_AGENTS = 2000;
/** Longest text field kept whole; longer ones are cut (a description is a line or two). */
const MAX_TEXT = 2000;

export const AGENT_ID = /^[a-z][a-z0-9-]*$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+/;
/** A version that can also name a folder: digits, letters, `.`, `-`, `+` (no separator, no `..`). */
export const SAFE_VERSION = /^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]{0,64}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: string) => (v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v);

/** Thrown inside one entry's reading; the entry becomes unavailable with this reason. */
class Bad extends Error {}

function stringList(v: unknown, where: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((a) => typeof a !== 'string')) throw new Bad(`${where} must be a list of strings`);
  return v as string[];
}

function envOf(v: unknown, where: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isObject(v)) throw new Bad(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    // A name that is no variable name could not be set (and `=` would split it).
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Bad(`${where} has a variable named "${k}"`);
    if (typeof value !== 'string') throw new Bad(`${where}.${k} must be a string`);
    out[k] = value;
  }
  return out;
}

function packageOf(v: unknown, kind: 'npx' | 'uvx'): PackageDistribution {
  if (!isObject(v)) throw new Bad(`distribution.${kind} must be an object`);
  const pkg = v.package;
  if (typeof pkg !== 'string' || !pkg.trim()) throw new Bad(`distribution.${kind} has no "package"`);
  // A package starting with `-` would be read by the launcher as one of its options.
  if (/^-|\s/.test(pkg)) throw new Bad(`distribution.${kind}.package "${pkg}" is not a package name`);
  const cmd = v.cmd;
  if (cmd !== undefined && (typeof cmd !== 'string' || !/^[A-Za-z0-9@._/-]+$/.test(cmd) || cmd.startsWith('-')))
    throw new Bad(`distribution.${kind}.cmd is not a program name`);
  return {
    package: pkg,
    ...(cmd !== undefined ? { cmd: cmd as string } : {}),
    args: stringList(v.args, `distribution.${kind}.args`),
    env: envOf(v.env, `distribution.${kind}.env`),
  };
}

function targetOf(v: unknown, key: string): BinaryTarget {
  const where = `distribution.binary.${key}`;
  if (!isObject(v)) throw new Bad(`${where} must be an object`);
  if (typeof v.archive !== 'string' || !v.archive) throw new Bad(`${where} has no "archive"`);
  let url: URL;
  try {
    url = new URL(v.archive);
  } catch {
    throw new Bad(`${where}.archive is not an address`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Bad(`${where}.archive is not an http(s) address`);
  if (typeof v.cmd !== 'string' || !v.cmd.trim()) throw new Bad(`${where} has no "cmd"`);
  if (v.sha256 !== undefined && (typeof v.sha256 !== 'string' || !/^[a-fA-F0-9]{64}$/.test(v.sha256)))
    throw new Bad(`${where}.sha256 is not 64 hex digits`);
  return {
    archive: v.archive,
    cmd: v.cmd,
    args: stringList(v.args, `${where}.args`),
    env: envOf(v.env, `${where}.env`),
    ...(typeof v.sha256 === 'string' ? { sha256: v.sha256.toLowerCase() } : {}),
  };
}

function distributionOf(v: unknown): Distribution {
  if (!isObject(v)) throw new Bad('"distribution" must be an object');
  const out: {
    npx?: PackageDistribution;
    uvx?: PackageDistribution;
    binary?: Partial<Record<PlatformKey, BinaryTarget>>;
  } = {};
  if (v.npx !== undefined) out.npx = packageOf(v.npx, 'npx');
  if (v.uvx !== undefined) out.uvx = packageOf(v.uvx, 'uvx');
  if (v.binary !== undefined) {
    if (!isObject(v.binary)) throw new Bad('distribution.binary must be an object');
    const binary: Partial<Record<PlatformKey, BinaryTarget>> = {};
    for (const [key, target] of Object.entries(v.binary)) {
      // A platform this client does not know is not one it runs on: skipped, not an error.
      if ((PLATFORM_KEYS as readonly string[]).includes(key)) binary[key as PlatformKey] = targetOf(target, key);
    }
    out.binary = binary;
  }
  if (!out.npx && !out.uvx && !out.binary)
    throw new Bad('"distribution" names no way to install it (npx, uvx, binary)');
  return out;
}

function optionalString(e: Json, key: string): string | undefined {
  return typeof e[key] === 'string' && e[key] ? text(e[key] as string) : undefined;
}

function agentOf(e: unknown): RegistryAgent {
  if (!isObject(e)) throw new Bad('the entry is not an object');
  if (typeof e.id !== 'string' || !e.id) throw new Bad('it has no "id"');
  if (e.id.length > 64 || !AGENT_ID.test(e.id))
    throw new Bad(`its id "${e.id.slice(0, 64)}" is not lowercase letters, digits and "-"`);
  if (typeof e.name !== 'string' || !e.name.trim()) throw new Bad('it has no "name"');
  if (typeof e.version !== 'string' || !VERSION.test(e.version)) throw new Bad('it has no version of the form 1.2.3');
  if (!SAFE_VERSION.test(e.version)) throw new Bad(`its version "${e.version.slice(0, 80)}" cannot name a folder`);
  if (typeof e.description !== 'string') throw new Bad('it has no "description"');
  if (e.distribution === undefined) throw new Bad('it has no "distribution"');
  const icon = optionalString(e, 'icon');
  return {
    id: e.id,
    name: text(e.name.trim()),
    version: e.version,
    description: text(e.description),
    ...(icon ? { icon } : {}),
    ...(optionalString(e, 'repository') ? { repository: optionalString(e, 'repository') } : {}),
    ...(optionalString(e, 'website') ? { website: optionalString(e, 'website') } : {}),
    ...(optionalString(e, 'license') ? { license: optionalString(e, 'license') } : {}),
    distribution: distributionOf(e.distribution),
  };
}

/** Reads a `registry.json` document (its text, or its bytes' length checked by the caller first). */
export function parseRegistry(body: string): RegistryParse {
  if (body.length > MAX_REGISTRY_BYTES)
    return { ok: false, why: `it is larger than ${MAX_REGISTRY_BYTES / 1024 / 1024} MB` };
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return { ok: false, why: 'it is not JSON' };
  }
  if (!isObject(doc)) return { ok: false, why: 'it is not a JSON object' };
  const version = typeof doc.version === 'string' ? doc.version : undefined;
  const major = version && /^(\d+)\./.exec(version)?.[1];
  if (!major) return { ok: false, why: 'it has no format version' };
  if (Number(major) > FORMAT_MAJOR)
    return {
      ok: false,
      why: `it is of format ${version}, newer than this extension reads (${FORMAT_MAJOR}.x): update the extension`,
    };
  if (!Array.isArray(doc.agents)) return { ok: false, why: 'it has no list of agents' };
  const agents: RegistryAgent[] = [];
  const unavailable: UnavailableAgent[] = [];
  const seen = new Set<string>();
  for (const entry of doc.agents.slice(0, MAX_AGENTS)) {
    const named = isObject(entry) ? entry : {};
    const id = typeof named.id === 'string' && AGENT_ID.test(named.id) && named.id.length <= 64 ? named.id : undefined;
    const name = typeof named.name === 'string' && named.name.trim() ? text(named.name.trim()) : undefined;
    try {
      const agent = agentOf(entry);
      if (seen.has(agent.id)) throw new Bad(`the id "${agent.id}" is listed twice; the first entry is used`);
      seen.add(agent.id);
      agents.push(agent);
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      unavailable.push({ ...(id ? { id } : {}), ...(name ? { name } : {}), why: e.message });
    }
  }
  if (doc.agents.length > MAX_AGENTS)
    unavailable.push({ why: `the registry lists ${doc.agents.length} agents; only the first ${MAX_AGENTS} are read` });
  return { ok: true, registry: { version: version!, agents, unavailable } };
}
