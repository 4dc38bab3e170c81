// `npm run test:desktop`: the extension-host suites in a desktop VS Code (Electron), for
// machines that have one or can download it. VSCODE_EXECUTABLE points at an installed `code`
// binary; without it @vscode/test-electron downloads VS Code. CI uses code-server instead.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { QUIET_SETTINGS } from './codeServer';
import { createFixture } from './fixture';
import { repoRoot } from './paths';
import { configFor, suiteFolders, suiteRoot } from './suites';

async function runFolder(folder: string): Promise<boolean> {
  const config = configFor(folder);
  const fixture = createFixture(config);
  const userDataDir = mkdtempSync(join(tmpdir(), 'acp-desktop-'));
  try {
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(
      join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...QUIET_SETTINGS, ...fixture.settings, ...config.settings }, null, 2),
    );
    const launchArgs = [fixture.target, '--user-data-dir', userDataDir, '--disable-extensions'];
    if (!config.workspaceTrust) launchArgs.push('--disable-workspace-trust');
    const code = await runTests({
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
      extensionDevelopmentPath: repoRoot(),
      extensionTestsPath: join(repoRoot(), 'out', 'test', 'vscode', 'index.js'),
      extensionTestsEnv: { ...fixture.env, ACP_SUITE_DIR: join(suiteRoot(), folder) },
      launchArgs,
    });
    return code === 0;
  } catch (e) {
    console.error(`[${folder || 'default'}] ${e instanceof Error ? e.message : String(e)}`);
    return false;
  } finally {
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    fixture.dispose();
  }
}

async function main(): Promise<void> {
  let failed = 0;
  for (const folder of suiteFolders()) {
    console.log(`\n== suites in ${folder || 'suite/'} ==`);
    if (!(await runFolder(folder))) failed++;
  }
  console.log(failed === 0 ? '\nall extension-host suites passed' : `\n${failed} suite folder(s) failed`);
  process.exit(failed === 0 ? 0 : 1);
}

void main();
