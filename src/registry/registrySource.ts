/**
 * Where the registry comes from, cheapest first: the copy in global storage while it was checked
 * within the hour; else the address asked again with the copy's ETag (a 304 keeps it); offline,
 * or when the answer cannot be read, the last good copy, said as such; with none, the copy shipped
 * in the extension (for the public registry only: a company's own mirror is never replaced by the
 * public list), said as such with its date. A bad answer never replaces a good copy.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { parseRegistry, MAX_REGISTRY_BYTES, type ParsedRegistry } from './format';
import { get, readText, type GetOptions } from './http';
import { writeAtomic } from '../platform/atomicWrite';

/** The published registry (the protocol's "Registry" page). */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
/** A copy checked this recently is used without asking the network. */
export const RECHECK_MS = 60 * 60_000;

export interface RegistryRead {
  readonly registry?: ParsedRegistry;
  /** `network`: fetched now (or confirmed unchanged); `cache`: the kept copy; `shipped`: the extension's own copy. */
  readonly from?: 'network' | 'cache' | 'shipped';
  /** When the copy used was fetched (ms since the epoch), or the shipped copy's date. */
  readonly fetchedAt?: number;
  /** What went wrong on the way, when something did (the copy used is still good). */
  readonly problem?: string;
  readonly url: string;
}

export interface ShippedRegistry {
  /** Path of the shipped `registry.json`. */
  readonly file: string;
  /** Its date (ms since the epoch): when it was built from the registry's repository. */
  readonly date: number;
  /** The address it is a copy of (the public registry's): it never stands in for another. */
  readonly url: string;
}

export interface RegistrySourceOptions {
  readonly dir: string;
  readonly shipped?: ShippedRegistry;
  readonly now?: () => number;
  /** Timeouts and test certificates for the request. */
  readonly http?: Partial<Pick<GetOptions, 'answerMs' | 'stallMs' | 'ca'>>;
}

/** The kept copy: one file, written whole, so its address, ETag and body always belong together. */
interface Kept {
  url: string;
  etag?: string;
  fetchedAt: number;
  checkedAt: number;
  body: string;
}

export class RegistrySource {
  private readonly now: () => number;
  private reading: Promise<RegistryRead> | undefined;

  constructor(private readonly options: RegistrySourceOptions) {
    this.now = options.now ?? Date.now;
  }

  private get file(): string {
    return join(this.options.dir, 'registry-cache.json');
  }

  private async cached(url: string): Promise<{ meta: Kept; registry: ParsedRegistry } | undefined> {
    try {
      const meta = JSON.parse(await fs.readFile(this.file, 'utf8')) as Kept;
      if (meta.url !== url || typeof meta.checkedAt !== 'number' || typeof meta.fetchedAt !== 'number')
        return undefined;
      if (typeof meta.body !== 'string') return undefined;
      const parsed = parseRegistry(meta.body);
      return parsed.ok ? { meta, registry: parsed.registry } : undefined;
    } catch {
      return undefined;
    }
  }

  private async shipped(url: string, problem: string): Promise<RegistryRead> {
    const s = this.options.shipped;
    if (s && url === s.url) {
      try {
        const parsed = parseRegistry(await fs.readFile(s.file, 'utf8'));
        if (parsed.ok) return { url, registry: parsed.registry, from: 'shipped', fetchedAt: s.date, problem };
      } catch {
        // Missing from the package: said below as no registry at all.
      }
    }
    return { url, problem };
  }

  /** The registry at `url`. Concurrent calls share one read. `force`: ask the network even within the hour. */
  read(url: string, force = false): Promise<RegistryRead> {
    this.reading ??= this.load(url, force).finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async load(url: string, force: boolean): Promise<RegistryRead> {
    const kept = await this.cached(url);
    const now = this.now();
    if (kept && !force && now - kept.meta.checkedAt < RECHECK_MS)
      return { url, registry: kept.registry, from: 'cache', fetchedAt: kept.meta.fetchedAt };
    const fallBack = (problem: string): Promise<RegistryRead> | RegistryRead =>
      kept
        ? { url, registry: kept.registry, from: 'cache', fetchedAt: kept.meta.fetchedAt, problem }
        : this.shipped(url, problem);
    let answer;
    try {
      answer = await get(url, {
        answerMs: this.options.http?.answerMs ?? 15_000,
        stallMs: this.options.http?.stallMs ?? 15_000,
        maxBytes: MAX_REGISTRY_BYTES,
        headers: { accept: 'application/json', ...(kept?.meta.etag ? { 'if-none-match': kept.meta.etag } : {}) },
        ca: this.options.http?.ca,
      });
    } catch (e) {
      return fallBack(`the registry could not be fetched: ${(e as Error).message}`);
    }
    if (answer.status === 304 && kept) {
      answer.body.resume();
      await this.save({ ...kept.meta, checkedAt: now }).catch(() => {});
      return { url, registry: kept.registry, from: 'network', fetchedAt: kept.meta.fetchedAt };
    }
    let body: string;
    try {
      body = await readText(answer.body);
    } catch (e) {
      return fallBack(`the registry could not be fetched: ${(e as Error).message}`);
    }
    const parsed = parseRegistry(body);
    if (!parsed.ok) return fallBack(`the registry at ${url} cannot be read: ${parsed.why}`);
    const etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
    try {
      await this.save({ url, ...(etag ? { etag } : {}), fetchedAt: now, checkedAt: now, body });
    } catch {
      // Not kept (a full disk, a read-only folder): used now, fetched again next time.
    }
    return { url, registry: parsed.registry, from: 'network', fetchedAt: now };
  }

  private async save(kept: Kept): Promise<void> {
    await fs.mkdir(this.options.dir, { recursive: true });
    await writeAtomic(this.file, JSON.stringify(kept));
  }
}
