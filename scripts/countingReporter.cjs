// Mocha's spec reporter, plus the totals and the failed tests' titles and first error line written
// as JSON to $ACP_COUNTS_FILE for scripts/test.mjs, which repeats the failures at the end of a run
// (where a CI log that keeps only its tail still shows them).
const { writeFileSync } = require('node:fs');
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
    runner.on(Runner.constants.EVENT_TEST_FAIL, (test, err) => failures.push(failureOf(test, err)));
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
      if (process.env.ACP_COUNTS_FILE) {
        writeFileSync(
          process.env.ACP_COUNTS_FILE,
          JSON.stringify({ passed: passes, failed, skipped: pending, failures }),
        );
      }
    });
  }
}

CountingReporter.failureOf = failureOf;
module.exports = CountingReporter;
