// The library of benchmark 11: 10,000 kept sessions of 200 messages (2,000,000 messages) across
// 5 agents and 20 folders, the corpus of benchmark 6 (libraryCorpus.ts) spread over them. Built
// once into the test cache, under a version: a rerun reuses it (building takes minutes).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LibraryStore } from '../../src/library/store';
import { corpusSession, MESSAGES } from './libraryCorpus';

/** Bump when what is built changes: the cached library is then built again. */
const VERSION = 1;
export const SESSIONS = 10_000;
export const AGENTS = ['claude-code', 'codex', 'copilot', 'opencode', 'gemini'];
export const FOLDERS = [
  'webshop',
  'billing',
  'search-api',
  'mobile-app',
  'infra',
  'docs-site',
  'auth-service',
  'data-pipeline',
  'design-system',
  'cli-tools',
  'analytics',
  'notifications',
  'checkout',
  'inventory',
  'admin-panel',
  'ml-models',
  'gateway',
  'scheduler',
  'reports',
  'website',
];
/** Library files may grow to this (the cap is not what is measured). */
export const MAX_BYTES = 64 * 1024 ** 3;

export const folderPath = (name: string) => `/home/dev/src/${name}`;

/** Session `i`'s agent and folder: each folder holds sessions of every agent. */
export function placeOf(i: number): { agentId: string; cwd: string } {
  return {
    agentId: AGENTS[i % AGENTS.length]!,
    cwd: folderPath(FOLDERS[Math.floor(i / AGENTS.length) % FOLDERS.length]!),
  };
}

export interface BuiltLibrary {
  dir: string;
  messages: number;
  /** How long this run took to build it; undefined when it was in the cache. */
  buildMs?: number;
  /** How long the build took when it was made. */
  builtMs: number;
  fileBytes: number;
}

/** The library directory, built if the cache does not hold this version yet. */
export function searchLibrary(log: (line: string) => void): BuiltLibrary {
  const cache = process.env.ACP_TEST_CACHE || join(homedir(), '.cache', 'acp-client-test');
  const dir = join(cache, `search-bench-v${VERSION}`);
  const marker = join(dir, 'built.json');
  if (existsSync(marker)) return { dir, ...(JSON.parse(readFileSync(marker, 'utf8')) as Omit<BuiltLibrary, 'dir'>) };
  // Built beside, then renamed: a build cut short is never taken for a whole one.
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const store = LibraryStore.open({ dir: partial, maxBytes: MAX_BYTES });
  let messages = 0;
  let fileBytes = 0;
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const s = corpusSession(i, MESSAGES);
      messages += s.entries.filter((e) => e.type === 'user' || e.type === 'agent').length;
      store.write({
        ...placeOf(i),
        sessionId: s.sessionId,
        info: { title: s.title, updatedAt: s.updatedAt, complete: true },
        entries: s.entries.map((entry, index) => ({ index, entry })),
        opened: true,
      });
      if ((i + 1) % 1000 === 0)
        log(`built ${i + 1} of ${SESSIONS} sessions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    fileBytes = store.stats().fileBytes;
  } finally {
    store.close();
  }
  const builtMs = performance.now() - started;
  const built = { messages, builtMs, fileBytes };
  writeFileSync(join(partial, 'built.json'), JSON.stringify(built));
  renameSync(partial, dir);
  return { dir, ...built, buildMs: builtMs };
}
