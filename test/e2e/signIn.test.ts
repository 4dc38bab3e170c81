// Signing in as a person does it: the agent refuses to list sessions until the user signs in,
// so the Sessions view shows a "Sign in to …" row; clicking it offers the agent's method by
// name and description, and choosing it brings the sessions in.
import * as assert from 'node:assert/strict';
import { SELECTORS, useWorkbench } from './harness';
import { openSessionsView, seededSessions, since, titleOf, treeRow, widenSideBar } from './ui';

describe('Sign in from the Sessions view', function () {
  const wb = useWorkbench({ sessions: 3, turns: 1, agentArgs: ['--auth-required'] });

  it('clicks "Sign in to Reference Agent", picks "Log in", and sees the sessions', async () => {
    const started = Date.now();
    const { page, fixture } = wb();
    const sessions = seededSessions(fixture.storeDir, fixture.folders[0]!);
    await openSessionsView(page);
    await widenSideBar(page);
    const row = treeRow(page, 'Sign in to Reference Agent');
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await treeRow(page, titleOf(sessions[0]!)).count(), 0, 'no sessions before signing in');

    await row.click();
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Sign in to Reference Agent' })
      .waitFor({ state: 'visible', timeout: 30_000 });
    const method = page.locator(SELECTORS.quickPickRows, { hasText: 'Log in' });
    await method.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await method.innerText(), /Any attempt succeeds/, 'the method shows its description');
    await method.click();

    for (const s of sessions) await treeRow(page, titleOf(s)).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await row.count(), 0, 'the sign-in row is gone');
    await page.locator('.statusbar-item', { hasText: 'ACP: 1 ready' }).waitFor({ state: 'visible', timeout: 10_000 });
    console.log(
      `      signed in and listed in ${since(started)}; screenshot: ${await wb().screenshot('e2e-sign-in-sessions')}`,
    );
  });
});
