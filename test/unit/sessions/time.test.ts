import * as assert from 'node:assert/strict';
import { parseUpdatedAt, relativeTime } from '../../../src/sessions/time';

describe('parseUpdatedAt', () => {
  it('reads ISO 8601 forms agents send', () => {
    const t = Date.UTC(2025, 9, 29, 14, 22, 15);
    assert.equal(parseUpdatedAt('2025-10-29T14:22:15Z'), t);
    assert.equal(parseUpdatedAt('2025-10-29T14:22:15.123456Z'), t + 123);
    assert.equal(parseUpdatedAt('2025-10-29T16:22:15+02:00'), t);
    assert.equal(parseUpdatedAt('2025-10-29T16:22:15+0200'), t);
    assert.equal(parseUpdatedAt('2025-10-29 14:22:15z'), t);
    assert.equal(parseUpdatedAt('2025-10-29T14:22:15'), new Date(2025, 9, 29, 14, 22, 15).getTime());
    assert.equal(parseUpdatedAt('2025-10-29'), new Date(2025, 9, 29).getTime());
    assert.equal(parseUpdatedAt('2025-10-29T09:52:15-04:30'), t, 'a negative offset with minutes');
    assert.equal(parseUpdatedAt('2024-02-29T00:00:00Z'), Date.UTC(2024, 1, 29), 'a leap day');
    assert.equal(
      parseUpdatedAt('2000-02-29T00:00:00Z'),
      Date.UTC(2000, 1, 29),
      'a leap day in a century divisible by 400',
    );
    assert.equal(parseUpdatedAt('0099-01-01T00:00:00Z'), Date.parse('0099-01-01T00:00:00Z'), 'year 99 is not 1999');
  });

  it('reads a time without an offset as local time, and the widest offsets', () => {
    // The test machine may run in UTC, where local and UTC agree: a zone of its own for this test.
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      const t = Date.UTC(2025, 9, 29, 14, 22, 15);
      assert.equal(parseUpdatedAt('2025-10-29T14:22:15'), t - 330 * 60_000, 'India is 5:30 ahead of UTC');
      assert.equal(parseUpdatedAt('0050-06-01T12:00:00'), new Date('0050-06-01T12:00:00').getTime());
      assert.equal(parseUpdatedAt('0050-06-01T12:00:00Z'), Date.parse('0050-06-01T12:00:00Z'));
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    assert.equal(parseUpdatedAt('2025-01-01T23:59:00+23:59'), Date.UTC(2025, 0, 1));
    assert.equal(parseUpdatedAt('2025-01-01T00:00:00-23:59'), Date.UTC(2025, 0, 1, 23, 59));
    assert.equal(parseUpdatedAt('2025-01-01T00:00:00+24:00'), undefined);
    assert.equal(parseUpdatedAt('2025-01-01T00:00:00+23:60'), undefined);
  });

  it('reads what toISOString writes the same as Date.parse, on the fast path too', () => {
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      const at = new Date(Date.UTC(1970, 0, 1) + (seed % 4_000_000) * 1_000_003);
      const iso = at.toISOString();
      assert.equal(parseUpdatedAt(iso), at.getTime(), iso);
      assert.equal(parseUpdatedAt(iso.replace(/\.\d{3}Z$/, 'Z')), Math.floor(at.getTime() / 1000) * 1000, iso);
    }
  });

  it('gives undefined for anything else', () => {
    for (const raw of [
      undefined,
      null,
      1761747735000,
      '',
      'yesterday',
      'Oct 29 2025',
      '2025-02-30T00:00:00Z',
      '2025-02-30T00:00:00.000Z',
      '2025-10-29T14:22:1xZ',
      '2025-10-29T14:22:15.12xZ',
      '2025-10-29T14:60:00Z',
      '2025-10-29X14:22:15Z',
      '2025-13-01',
      '2025-10-29T25:00:00Z',
      '2025-10-29T14:22:15Zjunk',
      '1900-02-29',
      '2025-04-31',
      '2025-10-29T14:22:15+2400',
      '2025-10-29T14:22:15+01:60',
    ]) {
      assert.equal(parseUpdatedAt(raw), undefined, String(raw));
    }
  });
});

describe('relativeTime', () => {
  const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
  const ago = (ms: number) => relativeTime(now - ms, now);
  const MIN = 60_000;
  const H = 60 * MIN;

  it('reads like a person would say it', () => {
    assert.equal(ago(10_000), 'just now');
    assert.equal(ago(-5 * H), 'just now', 'future');
    assert.equal(ago(5 * MIN), '5 min ago');
    assert.equal(ago(59 * MIN), '59 min ago');
    assert.equal(ago(3 * H), '3 h ago');
    assert.equal(ago(23 * H), '23 h ago');
    assert.equal(relativeTime(new Date(2025, 5, 14, 1, 0).getTime(), now), 'yesterday');
    assert.equal(relativeTime(new Date(2025, 5, 11, 23, 0).getTime(), now), '4 days ago');
  });

  it('shows a short date beyond a week, with the year when it differs', () => {
    const sameYear = relativeTime(new Date(2025, 0, 3).getTime(), now);
    assert.ok(!sameYear.includes('ago') && !sameYear.includes('2025'), sameYear);
    assert.ok(relativeTime(new Date(2023, 0, 3).getTime(), now).includes('2023'));
  });
});
