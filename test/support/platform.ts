/**
 * Tests that need what a Windows host does not give say so with {@link posixIt}: the Windows lane
 * runs the unit suite under Windows' node.exe, where they are skipped with the reason in their
 * title. Everything else runs there too.
 */
const NEEDS = {
  symlinks:
    'symbolic links, which Windows makes only in Developer Mode or as an administrator (and Wine 8 makes none that resolve)',
  sh: 'POSIX shell syntax and tools (/bin/sh, tr)',
  orphans:
    'finding a child whose parent already ended (by its session or environment, on Linux); on Windows a tree is ended while its root lives',
  devFull: 'the /dev/full device',
} as const;

export type PosixNeed = keyof typeof NEEDS;

/** A test that runs on POSIX hosts only, for the reason named. */
export function posixIt(need: PosixNeed, title: string, fn: Mocha.AsyncFunc | Mocha.Func): Mocha.Test {
  return process.platform === 'win32' ? it.skip(`${title} [not on Windows: needs ${NEEDS[need]}]`) : it(title, fn);
}
