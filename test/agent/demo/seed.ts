// `demo`: writes the demo world under one folder: two project folders with their files, a
// multi-root workspace file naming both, and the reference agent's store with their sessions.
// Deterministic for a given `now`: ids, titles, histories and ages are the same on every run.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { type IndexEntry, SessionStore, toNdjson } from '../store';
import { SHOWCASE_TITLE, warehouseSessions, webshopSessions } from './catalogue';
import { showcaseHistory } from './curated';
import { firstPrompt, followUpTurn, type TurnScope, workTurn } from './turns';
import type { DemoProject, DemoSession } from './types';
import { warehouse } from './warehouse';
import { webshop } from './webshop';

export const DEMO_WORKSPACE = 'acme.code-workspace';

export interface DemoWorld {
  folders: string[];
  workspaceFile: string;
  store: string;
  sessions: number;
  updates: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A stable number from a string, for choices that must not change between runs. */
function hash(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

/**
 * The age of the i-th newest of n sessions, from `newest` to `oldest`: on a log scale that
 * leans towards the past (a handful today, more each week back, a few months old), with a
 * jitter smaller than the gap to either neighbour, so the order holds.
 */
function ageOf(i: number, n: number, newest: number, oldest: number, key: string): number {
  const base = (j: number) =>
    newest * Math.pow(oldest / newest, Math.pow(Math.min(Math.max(j, 0), n - 1) / Math.max(1, n - 1), 0.8));
  const gap = Math.min(base(i + 1) - base(i), i > 0 ? base(i) - base(i - 1) : Infinity);
  const jitter = Number.isFinite(gap) ? ((hash(key) % 1000) / 1000 - 0.5) * 0.6 * gap : 0;
  return Math.round(base(i) + jitter);
}

const slug = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');

function history(project: DemoProject, list: DemoSession[], i: number, cwd: string): SessionUpdate[] {
  const session = list[i]!;
  const fileOf = (path: string) => {
    const f = project.files.find((x) => x.path === path);
    if (!f) throw new Error(`demo: ${project.name} has no file ${path}`);
    return f;
  };
  const f = fileOf(session.file);
  const k = hash(`${project.name}:${i}`) % 97;
  const turnScope = (t: number): TurnScope => ({ project, cwd, idPrefix: `tool_${i}_${t}` });
  if (session.title === SHOWCASE_TITLE) return showcaseHistory(turnScope(0), f);
  const turns = session.long ?? (session.title === null ? 1 : 1 + (k % 4));
  const branch = `fix/${slug(session.title ?? session.file)}`;
  const updates = workTurn(turnScope(0), f, firstPrompt(session.title, f, k), k);
  for (let t = 1; t < turns; t++) {
    if (session.long && t % 3 === 0) {
      // A long session moves on to the next piece of work: another session's task.
      const other = list[(i + t * 7) % list.length]!;
      updates.push(
        ...workTurn(turnScope(t), fileOf(other.file), firstPrompt(other.title, fileOf(other.file), t), k + t),
      );
    } else {
      updates.push(...followUpTurn(turnScope(t), f, k + t - 1, branch));
    }
  }
  return updates;
}

/** Every file a history's diffs leave behind, by absolute path: the last write wins. */
function writtenFiles(updates: SessionUpdate[], into: Map<string, string>): void {
  for (const u of updates) {
    if (u.sessionUpdate !== 'tool_call_update') continue;
    for (const c of u.content ?? []) if (c.type === 'diff') into.set(c.path, c.newText);
  }
}

export function seedDemo(root: string, now = Date.now()): DemoWorld {
  const store = join(root, 'store');
  rmSync(store, { recursive: true, force: true });
  const sessionStore = new SessionStore(store);
  const entries: IndexEntry[] = [];
  const folders: string[] = [];
  let updates = 0;
  const projects: [DemoProject, DemoSession[], number, number][] = [
    [webshop, webshopSessions, 3 * MINUTE, 240 * DAY],
    [warehouse, warehouseSessions, 41 * MINUTE, 150 * DAY],
  ];
  for (const [project, list, newest, oldest] of projects) {
    const cwd = join(root, project.name);
    folders.push(cwd);
    const files = new Map<string, string>(Object.entries(project.extra).map(([p, t]) => [join(cwd, p), t]));
    list.forEach((session, i) => {
      const sessionId = `sess_${createHash('sha256').update(`demo:${project.name}:${i}`).digest('hex').slice(0, 16)}`;
      const h = history(project, list, i, cwd);
      updates += h.length;
      writtenFiles(h, files);
      writeFileSync(sessionStore.sessionPath(sessionId), toNdjson(h));
      entries.push({
        sessionId,
        cwd,
        updatedAt: new Date(now - ageOf(i, list.length, newest, oldest, sessionId)).toISOString(),
        title: session.title,
        turns: h.filter((u) => u.sessionUpdate === 'user_message_chunk').length,
      });
    });
    // The project's own files win over what a session's diff wrote to the same path.
    for (const f of project.files) files.set(join(cwd, f.path), f.text);
    for (const [path, text] of files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  sessionStore.addMany(entries);
  sessionStore.saveIndex();
  const workspaceFile = join(root, DEMO_WORKSPACE);
  writeFileSync(
    workspaceFile,
    JSON.stringify({ folders: folders.map((path) => ({ path })), settings: {} }, null, 2) + '\n',
  );
  return { folders, workspaceFile, store, sessions: entries.length, updates };
}
