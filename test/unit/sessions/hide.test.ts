import * as assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import {
  compileHideRules,
  DEFAULT_HIDE,
  hideReason,
  messageCount,
  subAgentMark,
  type HideContext,
} from '../../../src/sessions/hide';

const row = (title: string | null | undefined, meta?: Record<string, unknown>): SessionInfo => ({
  sessionId: 's',
  cwd: '/p',
  ...(title !== undefined ? { title } : {}),
  ...(meta ? { _meta: meta } : {}),
});
const shown: HideContext = { keep: false, agentTitles: true };

describe('hide rules: the setting', () => {
  it('defaults to hiding sub-agents and sessions nobody wrote in, and no title pattern', () => {
    const rules = compileHideRules(undefined);
    assert.deepEqual([rules.subAgents, rules.noUserMessage, rules.patterns.length, rules.errors], [true, true, 0, []]);
    assert.deepEqual(DEFAULT_HIDE.titlePatterns, []);
  });

  it('names the setting and the item for a bad pattern, and keeps the good ones', () => {
    const rules = compileHideRules({ titlePatterns: ['^\\[auto\\]', '(unclosed', 'dependabot'] });
    assert.equal(rules.patterns.length, 2);
    assert.equal(rules.errors.length, 1);
    assert.match(
      rules.errors[0]!,
      /^"acp\.sessions\.hide\.titlePatterns" item 2, "\(unclosed", is not a valid regular expression \(.*Unterminated group.*\); it is skipped\.$/,
    );
  });

  it('says what is wrong with every other malformed part, and uses the defaults there', () => {
    assert.match(compileHideRules('hide everything').errors[0]!, /"acp\.sessions\.hide" must be an object/);
    const rules = compileHideRules({ titlePatterns: 'x', noUserMessage: 'yes', subAgents: 0 });
    assert.deepEqual([rules.noUserMessage, rules.subAgents, rules.patterns.length], [true, true, 0]);
    assert.equal(rules.errors.length, 3);
    assert.ok(rules.errors.every((e) => e.includes('acp.sessions.hide')));
    const items = compileHideRules({ titlePatterns: [42, '', 'x'.repeat(501), 'ok'] });
    assert.equal(items.patterns.length, 1);
    assert.deepEqual(
      items.errors.map((e) => /item (\d)/.exec(e)?.[1]),
      ['1', '2', '3'],
    );
  });

  it('turns each rule off when asked', () => {
    const rules = compileHideRules({ noUserMessage: false, subAgents: false });
    assert.equal(hideReason(row('t', { claudeCode: { isSidechain: true } }), rules, shown), undefined);
    assert.equal(hideReason(row(null, { messageCount: 0 }), rules, shown), undefined);
  });
});

describe('hide rules: which sessions', () => {
  const rules = compileHideRules({ titlePatterns: ['^\\[auto\\]', 'nightly build'] });

  it('hides by title pattern, case-insensitive, on the title as shown', () => {
    assert.equal(hideReason(row('[auto] bump deps'), rules, shown), 'title');
    assert.equal(hideReason(row('Check the NIGHTLY\nbuild'), rules, shown), 'title', 'line breaks read as spaces');
    assert.equal(hideReason(row('Fix the login bug'), rules, shown), undefined);
    assert.equal(hideReason(row('x'.repeat(1_000_000) + 'nightly build'), rules, shown), undefined, 'past the cap');
  });

  it('runs a pattern that backtracks exponentially in time that grows with the title, not with 2^length', function () {
    // `^(.*)*!!` takes a backtracking engine 4 s on a 28-character title and doubles per
    // character: on these titles it would never finish. The deadline only turns such a hang
    // into a failure; the matcher takes milliseconds.
    this.timeout(30_000);
    const slow = compileHideRules({ titlePatterns: ['^(.*)*!!', '(a|aa)+$b', '(\\w+\\s?)+:'] });
    assert.deepEqual(slow.errors, []);
    const long = 'a'.repeat(199);
    const reasons = (titles: string[]) =>
      runInNewContext('run()', { run: () => titles.map((t) => hideReason(row(t), slow, shown)) }, { timeout: 20_000 });
    assert.deepEqual(reasons([long, 'word '.repeat(39)]), [undefined, undefined]);
    assert.deepEqual(reasons([`${long.slice(2)}!!`, 'word word:']), ['title', 'title']);
  });

  it('keeps JavaScript pattern syntax, and names lookaround and back-references, which cannot run in bounded time', () => {
    const js = compileHideRules({
      titlePatterns: ['^\\[auto\\]', '\\bdependabot\\b', '(?<kind>chore|ci): ', '\\d{4}-\\d{2}', 'ÉTÉ', '^warm\\/up$'],
    });
    assert.deepEqual(js.errors, []);
    for (const title of ['[AUTO] x', 'bump by Dependabot', 'ci: lint', 'run 2024-05', 'été', 'warm/up'])
      assert.equal(hideReason(row(title), js, shown), 'title', title);
    for (const title of ['auto', 'dependabots', 'fix: x', 'run 24-5', 'warm/up!'])
      assert.equal(hideReason(row(title), js, shown), undefined, title);
    const refused = compileHideRules({ titlePatterns: ['x(?=y)', '(?<!a)b', '(a)\\1', 'ok'] });
    assert.equal(refused.patterns.length, 1);
    assert.deepEqual(
      refused.errors.map((e) => /item (\d)/.exec(e)?.[1]),
      ['1', '2', '3'],
    );
    for (const e of refused.errors) assert.match(e, /without lookaround or back-references/);
  });

  it('hides sessions marked as side chains or sub-agents, as agents name the marks', () => {
    for (const meta of [
      { claudeCode: { isSidechain: true } },
      { isSidechain: true },
      { codex: { source: 'subAgent' } },
      { source: 'sub_agent' },
      { source: { subAgent: { thread_spawn: {} } } },
      { codex: { source: 'subAgentReview' } },
      { parentSessionId: 'sess_1' },
      { vendor: { isSubagent: true } },
    ]) {
      assert.equal(hideReason(row('Search', meta), rules, shown), 'subAgent', JSON.stringify(meta));
    }
    for (const meta of [
      { isSidechain: false },
      { source: 'cli' },
      { parentSessionId: '' },
      { forkedFrom: 'sess_1' },
      { a: { b: { isSidechain: true } } },
    ]) {
      assert.equal(hideReason(row('Search', meta), rules, shown), undefined, JSON.stringify(meta));
    }
  });

  it('hides sessions nobody wrote in: by a count of zero, or by a missing title where the agent titles others', () => {
    assert.equal(hideReason(row('Has a title', { messageCount: 0 }), rules, shown), 'noUserMessage');
    assert.equal(hideReason(row(null, { messageCount: 4 }), rules, shown), undefined, 'the count wins');
    assert.equal(hideReason(row(null), rules, shown), 'noUserMessage');
    assert.equal(hideReason(row('  '), rules, shown), 'noUserMessage');
    assert.equal(
      hideReason(row(null), rules, { keep: false, agentTitles: false }),
      undefined,
      'an agent that titles nothing has no session hidden for it',
    );
  });

  it('never hides a session the caller keeps (named, created here, open)', () => {
    const keep = { keep: true, agentTitles: true };
    assert.equal(hideReason(row('[auto] x', { isSidechain: true, messageCount: 0 }), rules, keep), undefined);
  });

  it('reads marks and counts within bounds, under a vendor key at most', () => {
    assert.equal(subAgentMark({ claudeCode: { isSidechain: true } }), 'claudeCode.isSidechain');
    assert.equal(messageCount({ claude: { numTurns: 3 } }), 3);
    assert.equal(messageCount({ messageCount: -1 }), undefined);
    assert.equal(messageCount({ messageCount: '0' }), undefined);
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 1]));
    assert.equal(subAgentMark({ ...wide, isSidechain: true }), undefined, 'only the first 50 keys are read');
    assert.equal(subAgentMark(null), undefined);
    assert.equal(subAgentMark([{ isSidechain: true }]), undefined);
  });
});
