/**
 * Tests that assume a POSIX host say so with these: they are skipped on Windows (the Windows
 * lane runs the unit suite under Windows' node.exe). What they assume: symbolic links as POSIX
 * makes them (Wine's are not NTFS's, and Windows needs Developer Mode for them), unlinking an
 * open file, signals and process groups, `/bin/sh` syntax, POSIX path spellings.
 */
export const posixDescribe: Mocha.SuiteFunction | Mocha.PendingSuiteFunction =
  process.platform === 'win32' ? describe.skip : describe;
