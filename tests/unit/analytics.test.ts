import { dayBefore, daysBetween, statDay } from '../../server/analytics/stat-day';
import { statsDue } from '../../server/analytics/stats-cadence';
import { toCsv } from '../../src/analytics/statsCsv';

const HOUR = 3600_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('stats days', () => {
  it('cut at midnight UTC, and take a zone when profiles have one', () => {
    expect(statDay(Date.parse('2026-11-25T23:59:59.999Z'))).toBe('2026-11-25');
    expect(statDay(Date.parse('2026-11-26T00:00:00Z'))).toBe('2026-11-26');
    expect(statDay(Date.parse('2026-11-25T23:30:00Z'), 'Europe/Kyiv')).toBe('2026-11-26');
    expect(dayBefore('2026-03-01', 1)).toBe('2026-02-28');
    expect(daysBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
  });
});

describe('stats cadence', () => {
  it('reads young posts hourly, then every 6 hours, then daily, and a post never read at once', () => {
    const published = (hoursAgo: number) => NOW - hoursAgo * HOUR;
    expect(statsDue(published(5), null, NOW)).toBe(true);
    expect(statsDue(published(5), NOW - HOUR, NOW)).toBe(true);
    expect(statsDue(published(5), NOW - 20 * 60_000, NOW)).toBe(false);
    expect(statsDue(published(72), NOW - HOUR, NOW)).toBe(false);
    expect(statsDue(published(72), NOW - 6 * HOUR, NOW)).toBe(true);
    expect(statsDue(published(24 * 30), NOW - 6 * HOUR, NOW)).toBe(false);
    expect(statsDue(published(24 * 30), NOW - 24 * HOUR, NOW)).toBe(true);
  });
});

describe('chart CSV', () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    expect(
      toCsv(
        ['Профіль', 'Views'],
        [
          ['a, "b"', 12],
          ['c', null],
        ],
      ),
    ).toBe('Профіль,Views\r\n"a, ""b""",12\r\nc,\r\n');
  });
});
