// Mocha's spec reporter, plus the totals (also per test file) and the failed tests' titles and
// first error line written as JSON to $ACP_COUNTS_FILE for scripts/test.mjs, which repeats the
// failures at the end of a run (where a CI log that keeps only its tail still shows them).
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
    const byFile = {};
    const tally = (test, key) => {
      const file = basename(test.file ?? '');
      (byFile[file] ??= { passed: 0, failed: 0, skipped: 0 })[key]++;
    };
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Runner.constants;
    runner.on(EVENT_TEST_PASS, (test) => tally(test, 'passed'));
    runner.on(EVENT_TEST_PENDING, (test) => tally(test, 'skipped'));
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      tally(test, 'failed');
      failures.push(failureOf(test, err));
    });
    runner.once(EVENT_RUN_END, () => {
      const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
      if (process.env.ACP_COUNTS_FILE) {
        writeFileSync(
          process.env.ACP_COUNTS_FILE,
          JSON.stringify({ passed: passes, failed, skipped: pending, failures, byFile }),
        );
      }
    });
  }
}

CountingReporter.failureOf = failureOf;
module.exports = CountingReporter;
