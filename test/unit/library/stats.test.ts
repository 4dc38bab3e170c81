// What a session used and cost, and how long its turns ran: merged write by write, read back
// whatever the column holds, summed per folder for today and this week, and put in words.
import * as assert from 'node:assert/strict';
import { duration } from '../../../src/protocol/duration';
import {
  dayOf,
  MAX_DAYS,
  mergeStats,
  money,
  parseStats,
  statsLine,
  totals,
  weekDays,
} from '../../../src/library/stats';

const USD = (amount: number) => ({ amount, currency: 'USD' });

describe('library: a session’s use, cost and active time', () => {
  it('keeps the last usage report and adds time and cost to the day they came', () => {
    let s = mergeStats(
      undefined,
      { usage: { used: 100, size: 1000, cost: USD(0.5) }, activeMs: 2000, cost: 0.5 },
      '2026-11-26',
    );
    s = mergeStats(s, { usage: { used: 300, size: 1000, cost: USD(0.75) }, activeMs: 1000, cost: 0.25 }, '2026-11-27');
    s = mergeStats(s, { activeMs: 500 }, '2026-11-27');
    assert.deepEqual(s, {
      used: 300,
      size: 1000,
      cost: USD(0.75),
      activeMs: 3500,
      days: { '2026-11-26': { activeMs: 2000, cost: 0.5 }, '2026-11-27': { activeMs: 1500, cost: 0.25 } },
    });
    // A report alone (no turn ran: a load's replay) changes no day.
    assert.deepEqual(mergeStats(s, { usage: { used: 1, size: 2 } }, '2026-11-28').days, s.days);
  });

  it('keeps the last days only', () => {
    let s = mergeStats(undefined, { activeMs: 1 }, '2026-01-01');
    for (let d = 2; d <= MAX_DAYS + 5; d++) s = mergeStats(s, { activeMs: 1 }, dayOf(new Date(2026, 0, d).getTime()));
    assert.equal(Object.keys(s.days!).length, MAX_DAYS);
    assert.equal(s.days!['2026-01-01'], undefined, 'the oldest went first');
    assert.equal(s.activeMs, MAX_DAYS + 5, 'the total keeps every day');
  });

  it('ignores numbers that cannot be shown, and reads a damaged column as nothing', () => {
    const s = mergeStats(undefined, { usage: { used: NaN, size: 5 }, activeMs: -5, cost: Infinity }, '2026-11-27');
    assert.deepEqual(s, {});
    assert.equal(parseStats('not json'), undefined);
    assert.equal(parseStats('[1,2]'), undefined);
    assert.equal(parseStats(undefined), undefined);
    assert.deepEqual(
      parseStats(
        JSON.stringify({
          used: 'many',
          size: 10,
          cost: { amount: 1, currency: 'A-VERY-LONG-CURRENCY' },
          activeMs: 7,
          days: { 'not a day': { activeMs: 1 }, '2026-11-27': { activeMs: 3, cost: -1 }, '2026-11-26': null },
          extra: { huge: 'x'.repeat(100) },
        }),
      ),
      { size: 10, activeMs: 7, days: { '2026-11-27': { activeMs: 3 } } },
    );
  });

  it('sums a folder’s sessions for the days asked, saying when currencies differ', () => {
    const a = mergeStats(
      undefined,
      { usage: { used: 1, size: 2, cost: USD(1) }, activeMs: 60_000, cost: 1 },
      '2026-11-27',
    );
    const b = mergeStats(
      undefined,
      { usage: { used: 1, size: 2, cost: USD(2) }, activeMs: 120_000, cost: 2 },
      '2026-11-25',
    );
    const eur = mergeStats(
      undefined,
      { usage: { used: 1, size: 2, cost: { amount: 3, currency: 'EUR' } }, activeMs: 1, cost: 3 },
      '2026-11-27',
    );
    assert.deepEqual(totals([a, b, undefined], ['2026-11-27']), {
      activeMs: 60_000,
      cost: 1,
      currency: 'USD',
      sessions: 1,
    });
    assert.deepEqual(totals([a, b], ['2026-11-25', '2026-11-26', '2026-11-27']), {
      activeMs: 180_000,
      cost: 3,
      currency: 'USD',
      sessions: 2,
    });
    assert.equal(totals([a, eur], ['2026-11-27']).currency, '');
  });

  it('counts this week from Monday, in local days', () => {
    // Friday 27 November 2026.
    const friday = new Date(2026, 10, 27, 15).getTime();
    assert.deepEqual(weekDays(friday), ['2026-11-27', '2026-11-26', '2026-11-25', '2026-11-24', '2026-11-23']);
    assert.deepEqual(weekDays(new Date(2026, 10, 23, 0, 5).getTime()), ['2026-11-23']);
    assert.equal(weekDays(new Date(2026, 10, 29, 23).getTime()).length, 7, 'Sunday ends the week');
  });

  it('puts a session’s use in words', () => {
    assert.equal(
      statsLine({ used: 12_345, size: 200_000, cost: { amount: 0.0421, currency: 'USD' }, activeMs: 725_000 }),
      '12,345 of 200,000 tokens in context · cost USD 0.04 · active 12 min',
    );
    assert.equal(statsLine({}), undefined);
    assert.equal(statsLine(undefined), undefined);
    assert.equal(duration(40_000), '40 s');
    assert.equal(duration(3_900_000), '1 h 5 min');
    assert.equal(duration(7_200_000), '2 h');
    assert.equal(money(0.004, 'USD'), 'USD 0.0040');
    assert.equal(money(1.5, undefined), '1.50');
  });
});
