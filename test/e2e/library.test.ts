// The session library as a person meets it: a session opened once is found in Resume Session
// by a word from the middle of its history, with that text shown under the row; after the
// window reloads, its chat comes back with the history on screen from the library while the
// agent has not answered yet, attached with `session/resume`, not replayed with `session/load`.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededTurn } from '../agent/content';
import { SELECTORS, useWorkbench } from './harness';
import { chatFrame, openSessionsView, runCommand, seededSessions, since, titleOf, treeRow } from './ui';
import { recorded } from '../support/chat';

const TURNS = 5;
/** The turn whose words are searched for: the middle of the history. */
const MIDDLE = 2;
const record = join(mkdtempSync(join(tmpdir(), 'acp-library-e2e-')), 'record.jsonl');

/** What the agent received about a session, in order. */
function methodsFor(sessionId: string): string[] {
  return recorded(record)
    .filter((m) => m.params?.sessionId === sessionId)
    .map((m) => m.method);
}

describe('Session library (search by content, instant reopen)', function () {
  // The agent records what it receives, and never answers `session/resume`: whatever the chat
  // shows after the reload came from the library, not from the agent.
  const wb = useWorkbench({
    sessions: 4,
    turns: TURNS,
    env: { ACP_REF_AGENT_ARGS: `--record ${record} --hang session/resume` },
  });

  it('finds a session by what was said in it, and reopens it from the library after a reload', async function () {
    this.timeout(240_000);
    const { page, fixture } = wb();
    const started = Date.now();
    const cwd = fixture.folders[0]!;
    const sessions = seededSessions(fixture.storeDir, cwd);
    const session = sessions[0]!;
    const index = JSON.parse(readFileSync(join(fixture.storeDir, 'index.json'), 'utf8')) as {
      sessions: { sessionId: string; seeded?: { index: number } }[];
    };
    const seed = index.sessions.find((s) => s.sessionId === session.sessionId)!.seeded!.index;
    const middle = seededTurn(cwd, MIDDLE, seed)[0]!;
    assert.ok(middle.sessionUpdate === 'user_message_chunk' && middle.content.type === 'text');
    // Two words of the middle prompt, as a person remembers them.
    const words = middle.content.text
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= 5)
      .slice(0, 2);
    const title = titleOf(session);

    await openSessionsView(page);
    await treeRow(page, title).click();
    const frame = chatFrame(page);
    await frame.locator('.composer button.send:not([disabled])').waitFor({ state: 'attached', timeout: 60_000 });
    // The thread is virtualised: the newest entries are the ones on screen.
    const lastPrompt = seededTurn(cwd, TURNS - 1, seed)[0]!;
    assert.ok(lastPrompt.sessionUpdate === 'user_message_chunk' && lastPrompt.content.type === 'text');
    const lastWords = lastPrompt.content.text.split('`')[0]!.slice(0, 30);
    await frame.locator('.entry-user', { hasText: lastWords }).last().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(methodsFor(session.sessionId).filter((m) => m === 'session/load').length, 1);

    await runCommand(page, 'ACP: Resume Session');
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: /1 of \d+ searchable by content/ })
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator(SELECTORS.quickInput).pressSequentially(words.join(' '), { delay: 30 });
    const row = page.locator(SELECTORS.quickPickRows).filter({ hasText: title }).filter({ hasText: words[0]! });
    await row.first().waitFor({ state: 'visible', timeout: 30_000 });
    const shown = (await row.first().innerText()).replace(/\s+/g, ' ');
    assert.ok(
      words.every((w) => shown.includes(w)),
      `the row shows the matching text: ${shown}`,
    );
    const picture = await wb().screenshot('e2e-library-search');
    await page.keyboard.press('Escape');

    const loadsBefore = methodsFor(session.sessionId).filter((m) => m === 'session/load').length;
    const loaded = page.waitForEvent('load', { timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await loaded;
    await page.locator(SELECTORS.workbench).waitFor({ state: 'visible', timeout: 60_000 });
    const again = chatFrame(page);
    // The history, to its last message, is on screen though the agent never answers the resume.
    await again.locator('.entry-user', { hasText: lastWords }).last().waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await again.locator('.composer button.send:not([disabled])').count(), 0, 'still resuming');
    const methods = methodsFor(session.sessionId);
    assert.equal(methods.at(-1), 'session/resume', methods.join(', '));
    assert.equal(methods.filter((m) => m === 'session/load').length, loadsBefore, 'no replay after the reload');
    console.log(
      `      found by content and reopened from the library (${since(started)}); screenshots: ${picture}, ` +
        (await wb().screenshot('e2e-library-reopened')),
    );
  });
});
