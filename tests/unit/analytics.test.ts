import { dayBefore, daysBetween, dayStartMs, latestDay, profileZone, statDay } from '../../server/analytics/stat-day';
import { rollUpCut } from '../../server/analytics/stats-rollup';
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

describe('stats days in a profile’s time zone', () => {
  const at = (iso: string) => Date.parse(iso);
  const hours = (day: string, zone: string) => (dayStartMs(dayBefore(day, -1), zone) - dayStartMs(day, zone)) / HOUR;

  it('a read at 23:30 and one at 00:30 local fall on two days, whatever UTC says', () => {
    // Kyiv in November is UTC+2: 23:30 local is 21:30 UTC, 00:30 local is 22:30 UTC (both 26 November in UTC).
    expect(statDay(at('2026-11-26T21:30:00Z'), 'Europe/Kyiv')).toBe('2026-11-26');
    expect(statDay(at('2026-11-26T22:30:00Z'), 'Europe/Kyiv')).toBe('2026-11-27');
    // Los Angeles is UTC−8: 00:30 UTC on the 27th is still the 26th there.
    expect(statDay(at('2026-11-27T00:30:00Z'), 'America/Los_Angeles')).toBe('2026-11-26');
    expect(statDay(at('2026-11-27T08:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-27');
    expect(dayStartMs('2026-11-27', 'Europe/Kyiv')).toBe(at('2026-11-26T22:00:00Z'));
    expect(dayStartMs('2026-11-27', 'America/Los_Angeles')).toBe(at('2026-11-27T08:00:00Z'));
    expect(dayStartMs('2026-11-27')).toBe(at('2026-11-27T00:00:00Z'));
  });

  it('a clock change makes a day of 23 or 25 hours, and the day boundaries follow it', () => {
    // Kyiv: 03:00 → 04:00 on 29 March 2026, 04:00 → 03:00 on 25 October 2026.
    expect(dayStartMs('2026-03-29', 'Europe/Kyiv')).toBe(at('2026-03-28T22:00:00Z'));
    expect(dayStartMs('2026-03-30', 'Europe/Kyiv')).toBe(at('2026-03-29T21:00:00Z'));
    expect(hours('2026-03-29', 'Europe/Kyiv')).toBe(23);
    expect(hours('2026-10-25', 'Europe/Kyiv')).toBe(25);
    expect(hours('2026-10-26', 'Europe/Kyiv')).toBe(24);
    // Los Angeles: 02:00 → 03:00 on 8 March 2026, 02:00 → 01:00 on 1 November 2026.
    expect(dayStartMs('2026-03-09', 'America/Los_Angeles')).toBe(at('2026-03-09T07:00:00Z'));
    expect(hours('2026-03-08', 'America/Los_Angeles')).toBe(23);
    expect(hours('2026-11-01', 'America/Los_Angeles')).toBe(25);
    // The last hour of the long day is still that day; the next starts at its midnight.
    expect(statDay(at('2026-10-25T21:59:59Z'), 'Europe/Kyiv')).toBe('2026-10-25');
    expect(statDay(at('2026-10-25T22:00:00Z'), 'Europe/Kyiv')).toBe('2026-10-26');
  });

  it('a day starts at its first instant and the moment before is the day before (midnight skipped too)', () => {
    const cases: [string, string][] = [
      ['2026-03-29', 'Europe/Kyiv'],
      ['2026-10-25', 'Europe/Kyiv'],
      ['2026-03-08', 'America/Los_Angeles'],
      ['2026-11-01', 'America/Los_Angeles'],
      ['2026-09-06', 'America/Santiago'], // Chile skips midnight itself: the day starts at 01:00
      ['2026-11-26', 'UTC'],
    ];
    for (const [day, zone] of cases) {
      expect(statDay(dayStartMs(day, zone), zone), `${day} ${zone}`).toBe(day);
      expect(statDay(dayStartMs(day, zone) - 1, zone), `${day} ${zone}`).toBe(dayBefore(day, 1));
    }
  });

  it('the roll-up cuts at the start of the local day 14 days back, so no local day is split', () => {
    // 00:30 on 12 April in Kyiv (21:30 UTC on the 11th): the cut is Kyiv's midnight starting 29 March.
    expect(rollUpCut(at('2026-04-11T21:30:00Z'), 'Europe/Kyiv')).toBe(at('2026-03-28T22:00:00Z'));
    // A day later the cut has moved by the 23 hours of that day, not 24.
    expect(rollUpCut(at('2026-04-12T21:30:00Z'), 'Europe/Kyiv')).toBe(at('2026-03-29T21:00:00Z'));
    // The same instant in UTC and Los Angeles: each zone's own day.
    expect(rollUpCut(at('2026-04-11T21:30:00Z'), 'UTC')).toBe(at('2026-03-28T00:00:00Z'));
    expect(rollUpCut(at('2026-04-11T21:30:00Z'), 'America/Los_Angeles')).toBe(at('2026-03-28T07:00:00Z'));
    // Across LA's autumn change the cut moves by 25 hours.
    expect(
      rollUpCut(at('2026-11-16T12:00:00Z'), 'America/Los_Angeles') -
        rollUpCut(at('2026-11-15T12:00:00Z'), 'America/Los_Angeles'),
    ).toBe(25 * HOUR);
  });

  it('a chart across zones ends on the latest today among them; a profile without a zone counts in UTC', () => {
    const now = at('2026-11-26T22:30:00Z');
    expect(latestDay(now, ['America/Los_Angeles', null])).toBe('2026-11-26');
    expect(latestDay(now, ['America/Los_Angeles', null, 'Europe/Kyiv'])).toBe('2026-11-27');
    expect(latestDay(now, [])).toBe('2026-11-26');
    expect(profileZone(null)).toBe('UTC');
    expect(profileZone('Not/AZone')).toBe('UTC');
    expect(profileZone('Europe/Kyiv')).toBe('Europe/Kyiv');
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
