// The Sessions view from the keyboard while its agent is still starting: focusing the view puts
// the focus in its list, and the arrow keys move through the rows once they arrive.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SELECTORS, useWorkbench } from './harness';
import { runCommand, seededSessions, titleOf } from './ui';

/** The label of the tree row that has the keyboard focus, if the focus is in the tree. */
async function focusedRow(page: Page): Promise<string | undefined> {
  return page.evaluate((view) => {
    const root = document.querySelector(view);
    if (!root || !root.contains(document.activeElement)) return undefined;
    return root.querySelector('.monaco-list-row.focused .label-name')?.textContent ?? '';
  }, SELECTORS.sessionsView);
}

describe('Sessions view: keyboard while the agent starts', function () {
  // Every message of the agent waits 800 ms: its start and first page take a few seconds.
  const wb = useWorkbench({ sessions: 4, turns: 1, agentArgs: ['--delay', '800'] });

  it('"Focus on Sessions View" during the start leaves the focus in the list; Down reaches the rows', async () => {
    const { page, fixture } = wb();
    const sessions = seededSessions(fixture.storeDir, fixture.folders[0]!);
    // The extension is up once the window has started (its status bar item shows), before
    // anyone opens its view.
    await page.locator('.statusbar-item', { hasText: 'ACP' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'ACP: Focus on Sessions View');
    await page.waitForFunction(
      (view) => !!document.querySelector(view)?.contains(document.activeElement),
      SELECTORS.sessionsView,
      { timeout: 10_000 },
    );
    const rows = page.locator(SELECTORS.treeRows);
    await rows.filter({ hasText: titleOf(sessions[0]!) }).waitFor({ state: 'visible', timeout: 60_000 });
    // Down moves through the list: the date heading, then the sessions newest first.
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 4 && seen.at(-1) !== titleOf(sessions[1]!); i++) {
      const before = await focusedRow(page);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(
        ([view, b]) => {
          const label = document.querySelector(`${view} .monaco-list-row.focused .label-name`)?.textContent;
          return label !== undefined && label !== b;
        },
        [SELECTORS.sessionsView, before ?? null] as const,
        { timeout: 5_000 },
      );
      seen.push(await focusedRow(page));
    }
    // The seeded sessions were updated minutes ago: "Today" (or "Yesterday" just after midnight).
    assert.match(seen[0] ?? '', /^(Today|Yesterday)$/);
    assert.deepEqual(seen.slice(1), [titleOf(sessions[0]!), titleOf(sessions[1]!)]);
  });
});
