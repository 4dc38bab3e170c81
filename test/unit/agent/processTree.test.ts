import assert from 'node:assert/strict';
import {
  decodeOutput,
  endWindowsTree,
  parseProcStat,
  parsePs,
  parseWindowsTable,
  relatives,
  type ProcessRow,
  type Runner,
} from '../../../src/agent/processTree';
import { mayHaveLeft } from '../../../src/agent/marked';

describe('Process trees', () => {
  it('reads Linux /proc stat lines, names with spaces and parentheses included', () => {
    const rest = '0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 200';
    assert.deepEqual(parseProcStat(42, `42 (my (odd) name) S 7 42 3 ${rest}`), {
      pid: 42,
      ppid: 7,
      pgid: 42,
      sid: 3,
      start: 98765,
    });
    assert.equal(parseProcStat(43, `43 (zombie) Z 7 42 3 ${rest}`), undefined);
  });

  it('reads macOS ps and Windows wmic or PowerShell tables', () => {
    assert.deepEqual(parsePs('  10   1  10\n  11  10  10\n'), [
      { pid: 10, ppid: 1, pgid: 10 },
      { pid: 11, ppid: 10, pgid: 10 },
    ]);
    // wmic writes UTF-16 to a pipe, columns in alphabetical order.
    const wmic = Buffer.from(
      '\uFEFFParentProcessId  ProcessId  \r\r\n0                4          \r\r\n4  56\r\r\n',
      'utf16le',
    );
    assert.deepEqual(parseWindowsTable(decodeOutput(wmic), 'ppid-pid'), [
      { pid: 4, ppid: 0 },
      { pid: 56, ppid: 4 },
    ]);
    assert.deepEqual(parseWindowsTable('56 4\r\n', 'pid-ppid'), [{ pid: 56, ppid: 4 }]);
  });

  it('finds descendants, group members, and the sessions and groups a found process leads', () => {
    const table: ProcessRow[] = [
      { pid: 1, ppid: 0, pgid: 1, sid: 1 },
      { pid: 100, ppid: 1, pgid: 100, sid: 100 }, // the host, leading its session
      { pid: 200, ppid: 100, pgid: 200, sid: 100 }, // the agent, in its own group
      { pid: 201, ppid: 200, pgid: 200, sid: 100 }, // its child
      { pid: 300, ppid: 201, pgid: 300, sid: 300 }, // left with setsid, parent alive
      { pid: 400, ppid: 1, pgid: 400, sid: 400 }, // left with setsid, parent gone, holds a pipe
      { pid: 401, ppid: 400, pgid: 401, sid: 400 }, // started after it, in its session
      { pid: 500, ppid: 100, pgid: 500, sid: 100 }, // another child of the host: not ours
    ];
    const found = relatives(table, [400], [200]);
    assert.deepEqual(
      [...found].sort((a, b) => a - b),
      [200, 201, 300, 400, 401],
    );
  });

  it('reads marks and pipes only of processes that may have left: started since, in a session made since', () => {
    const since = 5000;
    const table: ProcessRow[] = [
      { pid: 1, ppid: 0, pgid: 1, sid: 1, start: 0 },
      { pid: 100, ppid: 1, pgid: 100, sid: 100, start: 10 }, // the desktop session's leader
      { pid: 110, ppid: 100, pgid: 110, sid: 100, start: 6000 }, // started since, in that old session
      { pid: 120, ppid: 1, pgid: 120, sid: 120, start: 20 }, // an old daemon
      { pid: 200, ppid: 100, pgid: 200, sid: 200, start: 5000 }, // the command
      { pid: 201, ppid: 200, pgid: 200, sid: 200, start: 5100 }, // its child, in its group
      { pid: 300, ppid: 1, pgid: 300, sid: 300, start: 5200 }, // left with setsid
      { pid: 310, ppid: 1, pgid: 310, sid: 309, start: 5300 }, // a double fork: its session's leader is gone
    ];
    assert.deepEqual(mayHaveLeft(table, relatives(table, [], [200]), since), [300, 310]);
    // Where the start time is unknown, every process not reached is read.
    assert.deepEqual(mayHaveLeft(table, relatives(table, [], [200]), undefined), [1, 100, 110, 120, 300, 310]);
  });

  it('ends a Windows tree with taskkill /T /F, checking its exit code, and reads no process table then', async () => {
    const calls: string[] = [];
    const run: Runner = async (file, args) => {
      calls.push([file, ...args].join(' '));
      return { code: 0, out: '' };
    };
    const table = async () => (calls.push('table'), []);
    const end = await endWindowsTree(10, { run, table });
    assert.deepEqual(end, { ok: true, how: 'taskkill /T /F' });
    assert.deepEqual(calls, ['taskkill /T /F /PID 10']);
  });

  it('when taskkill fails (Wine has no /T), ends every member the table shows, and says if one is left', async () => {
    const run: Runner = async () => ({ code: 1, out: 'invalid parameter' });
    const table = async (): Promise<ProcessRow[]> => [
      { pid: 10, ppid: 1 },
      { pid: 11, ppid: 10 },
      { pid: 12, ppid: 11 },
      { pid: 13, ppid: 1 },
    ];
    const killed = new Set<number>();
    const end = await endWindowsTree(10, { run, table, kill: (p) => killed.add(p), alive: (p) => !killed.has(p) });
    assert.equal(end.ok, true);
    assert.deepEqual([...killed].sort(), [10, 11, 12]);
    const stuck = await endWindowsTree(10, { run, table, kill: () => {}, alive: (p) => p === 12 });
    assert.equal(stuck.ok, false);
    assert.match(stuck.how, /taskkill failed \(exit 1\); still running: 12/);
  });
});
