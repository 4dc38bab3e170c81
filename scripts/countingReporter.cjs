// Mocha's spec reporter, plus the totals (also per test file) and the failed tests' titles and
// first error line written as JSON to $ACP_COUNTS_FILE for scripts/test.mjs, which repeats the
// failures at the end of a run (where a CI log that keeps only its tail still shows them). The
// file is written again as each test ends, with the test under way: a run cut short still says
// what passed and where it was.
const { writeFileSync } = require('node:fs');
const { basename } = require('node:path');
const { reporters, Runner } = require('mocha');

/** The test's full title and the first line of its error, short enough for a summary. */
function failureOf(test, err) {
  const message =
    String(err?.message ?? err ?? '')
      .split('\n')
      .find((line) => line.trim()) ?? '';
  return `${test.fullTitle()}: ${message.trim().slice(0, 300)}`;
}

class CountingReporter extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    /** The failed tests' full titles and first error lines, apart (the Windows lane runs some again). */
    const failedTests = [];
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const byFile = {};
    let current = '';
    const write = (extra = {}) => {
      if (process.env.ACP_COUNTS_FILE)
        writeFileSync(
          process.env.ACP_COUNTS_FILE,
          JSON.stringify({ ...counts, failures, failedTests, byFile, current, ...extra }),
        );
    };
    const tally = (test, key) => {
      counts[key]++;
      const file = basename(test.file ?? '');
      (byFile[file] ??= { passed: 0, failed: 0, skipped: 0 })[key]++;
      write();
    };
    const { EVENT_TEST_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_HOOK_BEGIN, EVENT_RUN_END } =
      Runner.constants;
    runner.on(EVENT_TEST_BEGIN, (test) => {
      current = test.fullTitle();
      write();
    });
    runner.on(EVENT_HOOK_BEGIN, (hook) => {
      current = hook.fullTitle();
    });
    runner.on(EVENT_TEST_PASS, (test) => tally(test, 'passed'));
    runner.on(EVENT_TEST_PENDING, (test) => tally(test, 'skipped'));
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      failures.push(failureOf(test, err));
      failedTests.push({
        title: test.fullTitle(),
        file: basename(test.file ?? ''),
        message: String(err?.message ?? err ?? ''),
      });
      tally(test, 'failed');
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
      Object.assign(counts, { passed: passes, failed, skipped: pending });
      current = '';
      write({ done: true });
    });
  }
}

CountingReporter.failureOf = failureOf;
module.exports = CountingReporter;
