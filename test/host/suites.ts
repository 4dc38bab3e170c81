// Which suites run in which world. out/test/vscode/suite/*.test.js run with one workspace
// folder and the reference agent; each subfolder runs on its own, with the configuration
// below or with a `suite.json` beside its sources (FixtureOptions plus `settings` and
// `workspaceTrust`), which wins.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FixtureOptions } from './fixture';
import { repoRoot } from './paths';

export interface SuiteConfig extends FixtureOptions {
  /** User settings over the fixture's (for example to turn workspace trust back on). */
  settings?: Record<string, unknown>;
  workspaceTrust?: boolean;
  /**
   * Where the fixture's agent settings are written: both the User and the Machine settings
   * (default), or only one of them. code-server is a remote window: it reads `acp.agents`
   * from the Machine settings only.
   */
  agentSettingsIn?: 'both' | 'user' | 'machine';
}

const CONFIGS: Record<string, SuiteConfig> = {
  '': { folders: ['project'], sessions: 5 },
  twoFolders: { folders: ['alpha', 'beta'], sessions: 5 },
  noAgent: { agent: false, sessions: 0 },
  untrusted: { workspaceTrust: true, settings: { 'security.workspace.trust.enabled': true } },
};

export const suiteRoot = () => join(repoRoot(), 'out', 'test', 'vscode', 'suite');

export function configFor(folder: string): SuiteConfig {
  const declared = join(repoRoot(), 'test', 'vscode', 'suite', folder, 'suite.json');
  const fromFile = existsSync(declared) ? (JSON.parse(readFileSync(declared, 'utf8')) as SuiteConfig) : {};
  return { ...CONFIGS[folder], ...fromFile };
}

export function suiteFolders(): string[] {
  const root = suiteRoot();
  if (!existsSync(root)) return [];
  const hasTests = (dir: string) => readdirSync(dir).some((f) => f.endsWith('.test.js'));
  const subfolders = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && hasTests(join(root, d.name)))
    .map((d) => d.name)
    .sort();
  return [...(hasTests(root) ? [''] : []), ...subfolders];
}
