// For suites running inside the extension host: what the runner set up for them.
import { existsSync, readFileSync } from 'node:fs';
import type { FixtureContext } from './fixture';

export function suiteContext(): FixtureContext {
  const file = process.env.ACP_TEST_CONTEXT;
  if (!file) throw new Error('ACP_TEST_CONTEXT is not set: run the suites through test/host/runVscodeSuites');
  return JSON.parse(readFileSync(file, 'utf8')) as FixtureContext;
}

/** The pids the reference agent wrote to its started-file, one per start. */
export function agentStarts(context: FixtureContext = suiteContext()): number[] {
  if (!existsSync(context.startedFile)) return [];
  return readFileSync(context.startedFile, 'utf8').split(/\s+/).filter(Boolean).map(Number);
}
