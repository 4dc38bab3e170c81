/**
 * The chat webview in Chromium, fed from the host's own thread: what the status line says while
 * a chat attaches, the sign-in banner, a permission card's tool call with its diff and input,
 * and the saved panel target a reloaded window reopens the chat from.
 */
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { PermissionRequests } from '../../src/chat/permissions';
import { Thread } from '../../src/chat/thread';
import type { ThreadEntry, ThreadStatus } from '../../src/protocol/entries';
import { changedEvent, snapshotEvent } from '../../src/protocol/messages';
import { readPanelTarget } from '../../src/protocol/panelTarget';
import { snapshotOf } from './fixtures';
import { frames, launch, startHarness, WebviewPage, type Harness } from './harness';
import { userChunk } from '../support/builders/updates';

describe('chat webview: attach states, sign-in, permission cards', function () {
  this.timeout(60_000);
  let browser: Browser;
  let harness: Harness;
  let view: WebviewPage;

  before(async () => {
    [browser, harness] = await Promise.all([launch(), startHarness()]);
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });
  beforeEach(async () => {
    view = await WebviewPage.open(browser, harness);
  });
  afterEach(async () => {
    await view?.close();
  });

  async function status(s: ThreadStatus): Promise<void> {
    await view.host.sendNotification(changedEvent, { changes: [{ kind: 'statusChanged', status: s }] });
    await frames(view);
  }

  it('says what the chat waits for, with Cancel each time: the agent starting, a new session, a resume, a history load', async () => {
    await view.host.sendNotification(
      snapshotEvent,
      snapshotOf([], { status: { state: 'loading', received: 0, phase: 'connect' } }, { canPrompt: false }),
    );
    await view.page.waitForSelector('.status-line');
    const text = () => view.page.textContent('.status-line .status-text');
    assert.equal(await text(), 'Starting Reference Agent…');
    await status({ state: 'loading', received: 0, phase: 'new' });
    assert.equal(await text(), 'Starting session…');
    await view.page.click('.status-line button:has-text("Cancel")');
    await view.waitForRequest('cancelLoad');
    await status({ state: 'loading', received: 0, phase: 'resume' });
    assert.equal(await text(), 'Resuming…');
    await status({ state: 'loading', received: 1500, phase: 'load' });
    assert.equal(await text(), 'Loading history… 1,500 updates');
  });

  it('offers "Sign in to <agent>" first on an error the agent raised for want of sign-in, then Retry', async () => {
    await view.host.sendNotification(snapshotEvent, snapshotOf([], {}, { canPrompt: false }));
    await status({ state: 'error', message: 'Sign in to Reference Agent to continue.', canRetry: true, signIn: true });
    await view.page.waitForSelector('.banner.error');
    const buttons = await view.page.locator('.banner button').allTextContents();
    assert.deepEqual(buttons, ['Sign in to Reference Agent', 'Retry', 'Show Log']);
    await view.page.click('.banner button:has-text("Sign in to Reference Agent")');
    await view.waitForRequest('signIn');

    await status({ state: 'error', message: 'The agent did not answer session/load in 30 s.', canRetry: true });
    // The channel delivers on a timer: wait for the new banner, not a number of frames.
    await view.page.waitForFunction(() => document.querySelector('.banner-message')?.textContent?.includes('30 s'));
    assert.deepEqual(
      await view.page.locator('.banner button').allTextContents(),
      ['Retry', 'Show Log'],
      'no sign-in for other errors',
    );
  });

  it("shows on the permission card's tool call what the user approves: the diff, and the input of a call with no content", async () => {
    // The host's own reducer builds the thread, as the chat does when the request arrives.
    const thread = new Thread();
    const permissions = new PermissionRequests(thread);
    const path = '/home/dev/project/src/protected.ts';
    thread.apply({
      sessionUpdate: 'tool_call',
      toolCallId: 'edit-1',
      title: `Edit ${path}`,
      kind: 'edit',
      status: 'pending',
    });
    const options = [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' as const }];
    const diff = {
      type: 'diff' as const,
      path,
      oldText: 'export const locked = true;\n',
      newText: 'export const locked = false;\n',
    };
    void permissions.request(
      { sessionId: 's', toolCall: { toolCallId: 'edit-1', content: [diff], locations: [{ path }] }, options },
      new AbortController().signal,
    );
    void permissions.request(
      {
        sessionId: 's',
        toolCall: {
          toolCallId: 'run-1',
          title: 'Run a command',
          kind: 'execute',
          rawInput: { command: 'rm -rf build' },
        },
        options,
      },
      new AbortController().signal,
    );
    const snap = thread.snapshot();
    await view.host.sendNotification(snapshotEvent, snapshotOf(snap.entries));
    await view.page.waitForSelector('.permission');
    await frames(view);

    const entries = view.page.locator('.entry');
    assert.equal(await entries.count(), 4);
    const editCard = entries.nth(0);
    assert.equal(await editCard.locator('.diff-del').textContent(), '- export const locked = true;');
    assert.equal(await editCard.locator('.diff-add').textContent(), '+ export const locked = false;');
    assert.equal(await editCard.locator('a.location').textContent(), path);
    assert.match((await entries.nth(1).locator('.permission-title').textContent()) ?? '', /Edit .*protected\.ts/);
    const runCard = entries.nth(2);
    assert.equal(await runCard.locator('.tool-title').textContent(), 'Run a command');
    assert.match(
      (await runCard.locator('details.tool-raw[open] .tool-raw-body').textContent()) ?? '',
      /"command": "rm -rf build"/,
    );
    assert.equal(await entries.nth(3).locator('.permission-title').textContent(), 'Run a command');
  });

  it('says what happened to a load that timed out, not that the session was resumed', async () => {
    await view.host.sendNotification(snapshotEvent, snapshotOf([], {}, { canPrompt: false, history: 'resumed' }));
    await view.page.waitForFunction(() => !(document.querySelector('.empty') as HTMLElement).hidden);
    assert.match((await view.page.textContent('.empty')) ?? '', /Session resumed/, 'an idle resumed chat says so');
    await status({
      state: 'error',
      message: 'Reference Agent did not answer session/load within 60 s',
      canRetry: true,
    });
    await view.page.waitForSelector('.banner.error');
    assert.equal(
      await view.page.textContent('.banner-message'),
      'Reference Agent did not answer session/load within 60 s',
    );
    assert.equal(await view.page.locator('.empty').isHidden(), true, 'nothing claims what did not happen');
  });

  it('marks a replay cut short where it stops, with Retry', async () => {
    const thread = new Thread();
    thread.apply(userChunk('The first question'));
    thread.addDivider('History is partial: Reference Agent stopped with exit code 3', { retry: true });
    await view.host.sendNotification(
      snapshotEvent,
      snapshotOf(thread.snapshot().entries, { status: { state: 'disconnected', message: 'Reference Agent stopped' } }),
    );
    await view.page.waitForSelector('.divider');
    assert.equal(
      await view.page.textContent('.divider .divider-text'),
      'History is partial: Reference Agent stopped with exit code 3',
    );
    await view.page.click('.divider button:has-text("Retry")');
    await view.waitForRequest('retry');
  });

  it("shows a turn's changes as one row, marks the files no tool call named, and asks the host to open them", async () => {
    const thread = new Thread();
    thread.apply(userChunk('Fix the tests'));
    thread.addChanges({
      folder: '/home/dev/project',
      turn: 't1',
      files: 3,
      added: 12,
      deleted: 4,
      unnamed: ['notes.txt'],
      unnamedCount: 1,
    });
    await view.host.sendNotification(snapshotEvent, snapshotOf(thread.snapshot().entries));
    await view.page.waitForSelector('.changes');
    assert.equal(await view.page.textContent('.changes .changes-open'), '3 files changed +12 −4');
    assert.equal(await view.page.textContent('.changes .changes-unnamed'), '1 not from a tool call');
    assert.match((await view.page.getAttribute('.changes .changes-unnamed', 'title')) ?? '', /notes\.txt/);
    await view.page.click('.changes .changes-open');
    await view.waitForRequest('openChanges', (p) => (p as { entryIndex?: number }).entryIndex === 1);
  });

  it('offers Restore Files to Before This Message on user messages only while checkpoints are on', async () => {
    const entries: ThreadEntry[] = [
      { type: 'user', text: 'Fix the tests', attachments: [], done: true },
      { type: 'agent', text: 'Done.', attachments: [], done: true },
    ];
    await view.host.sendNotification(snapshotEvent, snapshotOf(entries, {}, { canRestore: false }));
    await view.page.waitForSelector('.msg-user');
    assert.equal(await view.page.locator('.msg-user .msg-restore').isVisible(), false, 'hidden with checkpoints off');
    await view.host.sendNotification(snapshotEvent, snapshotOf(entries, {}, { canRestore: true }));
    await view.page.waitForSelector('body.can-restore');
    assert.equal(await view.page.locator('.msg-agent .msg-restore').count(), 0, "not on the agent's messages");
    await view.page.hover('.msg-user');
    await view.page.click('.msg-user .msg-restore');
    await view.waitForRequest('restoreFiles', (p) => (p as { entryIndex?: number }).entryIndex === 0);
  });

  it('offers Fork From Here on user messages only while the agent forks', async () => {
    const entries: ThreadEntry[] = [
      { type: 'user', text: 'Fix the tests', attachments: [], done: true },
      { type: 'agent', text: 'Done.', attachments: [], done: true },
      { type: 'user', text: 'Now the docs', attachments: [], done: true },
    ];
    await view.host.sendNotification(snapshotEvent, snapshotOf(entries, {}, { canFork: false }));
    await view.page.waitForSelector('.msg-user');
    assert.equal(await view.page.locator('.msg-user .msg-fork').first().isVisible(), false, 'hidden without fork');
    await view.host.sendNotification(snapshotEvent, snapshotOf(entries, {}, { canFork: true }));
    await view.page.waitForSelector('body.can-fork');
    assert.equal(await view.page.locator('.msg-agent .msg-fork').count(), 0, "not on the agent's messages");
    const second = view.page.locator('.msg-user').nth(1);
    await second.hover();
    assert.equal(await second.locator('.msg-fork').getAttribute('title'), 'Fork From Here');
    await second.locator('.msg-fork').click();
    await view.waitForRequest('forkFromHere', (p) => (p as { entryIndex?: number }).entryIndex === 2);
  });

  it("saves the panel target with the session's additional directories, for the window's next start", async () => {
    const dirs = ['/home/dev/docs', '/home/dev/shared'];
    await view.host.sendNotification(
      snapshotEvent,
      snapshotOf([{ type: 'user', text: 'hi', attachments: [], done: true }], {}, { additionalDirectories: dirs }),
    );
    await view.page.fill('.composer-input', 'x');
    const saved = await view.page.waitForFunction(
      () => (window as unknown as { __state?: { target?: unknown } }).__state?.target,
    );
    const target = readPanelTarget(await saved.jsonValue());
    assert.deepEqual(target, {
      agentId: 'reference',
      sessionId: 'sess-4f2a9c1e',
      cwd: '/home/dev/project',
      additionalDirectories: dirs,
      title: 'Fix the flaky session list paging',
    });
  });
});
