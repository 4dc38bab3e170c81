// Benchmark 2, the extension-host half: while the driver clicks a session in the Sessions view
// and watches the webview, this records when the host received the first update, when the
// load finished, and the host's event-loop delay. Files in $ACP_BENCH_CTL carry the signals:
// targets.json (driver) → armed-N (here) → click → done-N (driver) → result-N.json (here).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { api, loadedRoot } from '../../../vscode/support';
import { writeSignal } from '../../signal';
import { waitFor } from '../../../support/wait';

const epoch = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The driver's ACP_BENCH_PROFILE reaches this process as `profile-dir` in the control folder:
 * each replay's CPU profile of the extension host is saved there as `host-N.cpuprofile`.
 */
async function profileIfAsked(ctl: string, name: string): Promise<() => Promise<void>> {
  const file = join(ctl, 'profile-dir');
  if (!existsSync(file)) return async () => {};
  const dir = readFileSync(file, 'utf8');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/** Resolves once `check` holds, looked at after each of `source`'s changes (and at once). */
function whenChanged(
  what: string,
  source: { onDidChange: (listener: () => void) => vscode.Disposable },
  check: () => boolean,
  ms: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const sub = source.onDidChange(() => {
      if (!check()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

describe('bench: chat replay', function () {
  this.timeout(900_000);

  it('replays sessions opened from the Sessions view', async () => {
    const ctl = process.env.ACP_BENCH_CTL!;
    const a = await api();
    await vscode.commands.executeCommand('workbench.view.extension.acp');
    await loadedRoot(a);
    await waitFor('the targets', () => existsSync(join(ctl, 'targets.json')), 60_000, 1);
    const targets = JSON.parse(readFileSync(join(ctl, 'targets.json'), 'utf8')) as { sessionId: string }[];
    const host = a.agents.all[0]!;
    for (let i = 0; i < targets.length; i++) {
      const id = targets[i]!.sessionId;
      const connection = host.connection!;
      let firstUpdateAt: number | undefined;
      let updates = 0;
      const activity = connection.router.onActivity((sid) => {
        if (sid !== id) return;
        if (updates++ === 0) firstUpdateAt = epoch();
      });
      const h = monitorEventLoopDelay({ resolution: 5 });
      h.enable();
      writeFileSync(join(ctl, `armed-${i}`), '');
      // The command a click on the row runs, with the row's own node (see the driver for why).
      await waitFor('the driver', () => existsSync(join(ctl, `go-${i}`)), 120_000, 1);
      const node = a.tree.getChildren(undefined).find((n) => n.type === 'session' && n.row.sessionId === id);
      if (!node) throw new Error(`session ${id} is not in the Sessions view`);
      const saveProfile = await profileIfAsked(ctl, `host-${i}`);
      writeSignal(join(ctl, `opened-${i}`), String(epoch()));
      void vscode.commands.executeCommand('acp.openSession', node);
      const chat = await waitFor('the chat panel', () => a.chats.get(host.config.id, id), 120_000, 1);
      // Opened again, a session the library keeps whole shows from it and resumes: no replay.
      // Told by the thread's own events: polling would take the host's CPU from the load it times.
      await whenChanged(
        'the load to finish',
        chat.session.thread,
        () => chat.session.thread.status.state !== 'loading' && (updates > 0 || chat.session.thread.entries.length > 0),
        600_000,
      );
      const loadedAt = epoch();
      await saveProfile();
      const entries = chat.session.thread.entries.length;
      const status = chat.session.thread.status.state;
      writeSignal(join(ctl, `loaded-${i}`), JSON.stringify({ entries }));
      await waitFor('the driver', () => existsSync(join(ctl, `done-${i}`)), 600_000, 1);
      h.disable();
      activity.dispose();
      writeSignal(
        join(ctl, `result-${i}.json`),
        JSON.stringify({
          firstUpdateAt,
          loadedAt,
          updates,
          entries,
          status,
          loop: { maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6 },
        }),
      );
      chat.panel.dispose();
      await sleep(1500);
    }
  });
});
