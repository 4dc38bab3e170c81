// Runs the Windows lane's test files in one node.exe under Wine (see windowsLane.mjs) with mocha's
// own API: its command line loads every file as an ES module and itself through many more files,
// which under Wine costs more than the tests of the whole unit suite. Usage:
//   node.exe windowsRunner.cjs <file.js>...     counts to $ACP_COUNTS_FILE (countingReporter.cjs)
const { resolve } = require('node:path');
// mocha's CommonJS entry carries the class as `Mocha` (its types declare only `export =`).
const { Mocha } = /** @type {{ Mocha: typeof import('mocha') }} */ (/** @type {unknown} */ (require('mocha')));

const mocha = new Mocha({ reporter: resolve(__dirname, 'countingReporter.cjs'), timeout: 10_000 });
// $ACP_ONLY_TESTS: a JSON list of full titles, the only tests run (the lane's second try).
const only = process.env.ACP_ONLY_TESTS ? /** @type {string[]} */ (JSON.parse(process.env.ACP_ONLY_TESTS)) : [];
if (only.length) mocha.grep(new RegExp(`^(${only.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`));
for (const file of process.argv.slice(2)) mocha.addFile(resolve(file));
mocha.run((failures) => process.exit(failures > 0 ? 1 : 0));
