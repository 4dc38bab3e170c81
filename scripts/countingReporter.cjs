// Mocha's spec reporter, plus the totals written as JSON to $ACP_COUNTS_FILE for scripts/test.mjs.
const { writeFileSync } = require('node:fs');
const { reporters, Runner } = require('mocha');

class CountingReporter extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
      if (process.env.ACP_COUNTS_FILE) {
        writeFileSync(
          process.env.ACP_COUNTS_FILE,
          JSON.stringify({ passed: passes, failed: failures, skipped: pending }),
        );
      }
    });
  }
}

module.exports = CountingReporter;
