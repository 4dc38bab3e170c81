import * as assert from 'node:assert/strict';
import { SELECTORS, useWorkbench } from './harness';

describe('activity bar', () => {
  const wb = useWorkbench();

  it('shows the ACP icon, and clicking it opens the Sessions view', async () => {
    const { page } = wb();
    const icon = page.locator(SELECTORS.acpIcon);
    await icon.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match((await icon.getAttribute('aria-label')) ?? '', /^ACP/);

    await icon.click();
    const title = page
      .locator(`${SELECTORS.sessionsView} .pane-header`, { hasText: 'Sessions' })
      .or(page.locator('.part.sidebar .title-label', { hasText: 'Sessions' }));
    await title.first().waitFor({ state: 'visible', timeout: 30_000 });
    // Opening the view activates the extension, which then registers the tree's provider.
    await page.getByText('There is no data provider registered').waitFor({ state: 'hidden', timeout: 30_000 });
    console.log(`      screenshot: ${await wb().screenshot('e2e-activity-bar-sessions')}`);
  });
});
