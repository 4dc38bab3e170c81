// Mocha glue for UI tests: one workbench per describe block, a screenshot of every failure.
//
//   describe('tree', () => {
//     const wb = useWorkbench({ sessions: 30 });
//     it('lists sessions', async () => { await wb().page.click(...); });
//   });
import { startWorkbench, type Workbench, type WorkbenchOptions } from '../host/workbench';

export { SELECTORS } from '../host/browser';
export type { Workbench } from '../host/workbench';

export function useWorkbench(options: WorkbenchOptions = {}): () => Workbench {
  let workbench: Workbench | undefined;

  before(async function () {
    this.timeout(120_000);
    workbench = await startWorkbench(options);
    const { bootMs, workbenchMs } = workbench.timings;
    console.log(`      (code-server listening in ${bootMs} ms, workbench visible in ${workbenchMs} ms)`);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (workbench && test?.state === 'failed') {
      const file = await workbench.screenshot(`e2e-failure-${test.fullTitle()}`).catch((e) => `not taken: ${e}`);
      console.log(`      screenshot: ${file}`);
    }
  });

  after(async function () {
    this.timeout(30_000);
    await workbench?.dispose();
    workbench = undefined;
  });

  return () => {
    if (!workbench) throw new Error('the workbench is not started (did before() fail?)');
    return workbench;
  };
}
