import * as assert from 'node:assert/strict';
import { draftBriefing, emptyBriefing, MIN_BRIEFING_CHARS } from '../../../src/library/briefing';
import { LibraryStore } from '../../../src/library/store';
import type { MessageEntry, ThreadEntry, ToolCallEntry } from '../../../src/protocol/entries';
import { tempDir } from '../../support/refAgent';

const user = (text: string): MessageEntry => ({ type: 'user', text, attachments: [], done: true });
const agent = (text: string): MessageEntry => ({ type: 'agent', text, attachments: [], done: true });
const tool = (kind: ToolCallEntry['kind'], path: string, diff = false): ToolCallEntry => ({
  type: 'tool',
  toolCallId: `t-${kind}-${path}`,
  title: `${kind} ${path}`,
  kind,
  status: 'completed',
  content: diff ? [{ type: 'diff', path, oldText: 'a', newText: 'b' }] : [],
  locations: [{ path }],
});
const source = { agentName: 'Reference Agent', title: 'Cart totals', sessionId: 'sess-123456789', cwd: '/work/shop' };

describe('library: briefing', () => {
  it('holds the goal, the last plan, the files changed and the last turns', () => {
    const entries: ThreadEntry[] = [
      agent('Hello, what shall we do?'),
      user('Fix the cart total rounding in src/cart.ts; amounts are off by a cent.'),
      { type: 'thought', text: 'thinking about it', attachments: [], done: true },
      tool('read', '/work/shop/src/prices.ts'),
      tool('edit', '/work/shop/src/cart.ts'),
      agent('Rounded with integer cents.'),
      { type: 'plan', entries: [{ content: 'old plan', status: 'pending', priority: 'low' }] },
      user('Now add a test'),
      tool('other', '/work/shop/test/cart.test.ts', true),
      {
        type: 'plan',
        entries: [
          { content: 'Round in cents', status: 'completed', priority: 'high' },
          { content: 'Add a test', status: 'in_progress', priority: 'medium' },
        ],
      },
      {
        type: 'changes',
        folder: '/work/shop',
        turn: 't1',
        files: 3,
        added: 4,
        deleted: 1,
        unnamed: ['package-lock.json'],
        unnamedCount: 1,
      },
      agent('Added test/cart.test.ts.'),
    ];
    const b = draftBriefing(entries, source, 12_000);
    assert.equal(b.cut, false);
    assert.equal(b.turns, 2);
    assert.equal(b.turnsShown, 2);
    assert.equal(
      b.text,
      [
        '# Continued from Reference Agent — Cart totals',
        'This conversation continues a session held with Reference Agent in `/work/shop`. What follows was drafted from its kept transcript.',
        '## Goal',
        // The first message is short: the second joins it.
        'Fix the cart total rounding in src/cart.ts; amounts are off by a cent.\n\nNow add a test',
        '## Plan',
        '- [x] Round in cents\n- [~] Add a test',
        '## Files changed',
        '- `src/cart.ts`\n- `test/cart.test.ts`\n- `package-lock.json`',
        '## Last turns',
        '**User:** _(the goal above)_\n\n**Reference Agent:** Rounded with integer cents.',
        '**User:** _(the goal above)_\n\n**Reference Agent:** Added test/cart.test.ts.',
      ].join('\n\n'),
    );
    assert.doesNotMatch(
      b.text,
      /prices\.ts|thinking|Hello/,
      'reads, thoughts and what came before the first message stay out',
    );
  });

  it('over the limit, leaves the oldest turns out whole and says so in the briefing', () => {
    const entries: ThreadEntry[] = [user('x'.repeat(400))];
    for (let i = 1; i <= 40; i++) entries.push(agent(`reply ${i} ${'y'.repeat(200)}`), user(`question ${i + 1}`));
    entries.push(agent('the last reply'));
    const b = draftBriefing(entries, source, 3_000);
    assert.ok(b.text.length <= 3_000, String(b.text.length));
    assert.equal(b.cut, true);
    assert.ok(b.turnsShown > 0 && b.turnsShown < b.turns);
    const left = b.turns - b.turnsShown;
    assert.match(
      b.text,
      new RegExp(
        `_${left} earlier turns were left out: the briefing is capped at 3000 characters \\(\`acp\\.handoff\\.maxBriefingChars\`\\)\\._`,
      ),
    );
    // Cut between turns: each turn shown is whole, the newest last.
    assert.ok(b.text.endsWith('**User:** question 41\n\n**Reference Agent:** the last reply'));
    const firstShown = 41 - b.turnsShown + 1;
    assert.match(
      b.text,
      new RegExp(
        `\\*\\*User:\\*\\* question ${firstShown}\\n\\n\\*\\*Reference Agent:\\*\\* reply ${firstShown} y{200}\\n`,
      ),
    );
    assert.doesNotMatch(b.text, new RegExp(`question ${firstShown - 1}\\b`));
  });

  it('keeps within a limit below the minimum by taking the minimum', () => {
    const entries: ThreadEntry[] = [user('goal '.repeat(2_000)), agent('done '.repeat(2_000))];
    const b = draftBriefing(entries, source, 10);
    assert.ok(b.text.length <= MIN_BRIEFING_CHARS, String(b.text.length));
    assert.equal(b.cut, true);
    assert.match(b.text, /_1 earlier turn was left out/);
  });

  it('names the session when nothing of it was kept', () => {
    assert.equal(
      emptyBriefing({ ...source, title: undefined }),
      'Continued from Reference Agent — Untitled session sess-123 (session sess-123456789 in `/work/shop`); nothing of it was kept to brief you with.',
    );
  });

  it('keeps relative the paths inside the folder, on Windows too', () => {
    const b = draftBriefing(
      [user('go'), tool('edit', 'C:\\work\\shop\\src\\a.ts'), tool('edit', 'D:\\elsewhere\\b.ts')],
      { ...source, cwd: 'C:\\work\\shop\\' },
      5_000,
    );
    assert.match(b.text, /- `src\\a\.ts`\n- `D:\\elsewhere\\b\.ts`/);
  });

  it('keeps masked what the library masked: it drafts from the kept copy', () => {
    const dir = tempDir('acp-briefing-');
    const store = LibraryStore.open({ dir: dir.path, maxBytes: 1e9, log: () => {} });
    try {
      const secret = 'sk-live-0123456789abcdef';
      store.write({
        agentId: 'a',
        sessionId: 's1',
        cwd: '/work/shop',
        secrets: [secret],
        entries: [user(`deploy with ${secret}`), agent(`Deployed using ${secret}.`)].map((entry, index) => ({
          index,
          entry,
        })),
      });
      const kept = store.transcript({ agentId: 'a', sessionId: 's1' })!;
      const b = draftBriefing(kept, source, 5_000);
      assert.ok(!b.text.includes(secret), b.text);
      assert.match(b.text, /deploy with \S+/);
      assert.match(b.text, /\*\*Reference Agent:\*\* Deployed using \S+\./);
    } finally {
      store.close();
      dir.cleanup();
    }
  });
});
