// The extension-host test runner: VS Code loads this file (extensionTestsPath) and awaits run().
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

// The driver (test/host/runVscodeSuites.ts) reads these lines.
const START_MARKER = 'ACP-SUITE-START';
const COUNTS_MARKER = 'ACP-SUITE-COUNTS ';
const PROGRESS_MARKER = 'ACP-SUITE-PROGRESS ';

// The activation suite must see the extension before anything else touched it: it asserts
// that activating started no agent.
const rank = (file: string) => (file === 'activation.test.js' ? 0 : 1);

export function run(): Promise<void> {
  const dir = process.env.ACP_SUITE_DIR || join(__dirname, 'suite');
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 30_000 });
  if (process.env.ACP_SUITE_GREP) mocha.grep(process.env.ACP_SUITE_GREP);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const file of files) mocha.addFile(join(dir, file));
  console.log(`${START_MARKER} ${files.length} file(s) in ${dir}`);
  return new Promise((resolve, reject) => {
    try {
      const failedTests: string[] = [];
      const runner = mocha.run((failures) => {
        const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
        console.log(
          `${COUNTS_MARKER}${JSON.stringify({ passed: passes, failed, skipped: pending, files: files.length, failures: failedTests })}`,
        );
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
      // Repeated by the driver at the end of the run, where a log's tail shows it.
      runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err: unknown) => {
        const message = (err instanceof Error ? err.message : String(err)).split('\n').find((l) => l.trim()) ?? '';
        failedTests.push(`${test.fullTitle()}: ${message.trim().slice(0, 300)}`);
      });
      // What has passed so far and where the run is: a run cut short by the driver keeps both.
      const progress = (current: string) => {
        const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
        console.log(
          `${PROGRESS_MARKER}${JSON.stringify({ passed: passes, failed, skipped: pending, failures: failedTests, current })}`,
        );
      };
      runner.on(Mocha.Runner.constants.EVENT_TEST_BEGIN, (test) => progress(test.fullTitle()));
      runner.on(Mocha.Runner.constants.EVENT_TEST_END, (test) => progress(test.fullTitle()));
    } catch (e) {
      reject(e);
    }
  });
}
