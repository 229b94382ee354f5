import { monthGrid, firstMonthQuery, takePrefetched } from '../../src/calendar/monthPrefetch';
import { fromCalendarTime, nowInCalendar, onDayOf } from '../../src/calendar/zonedCalendar';

/**
 * The calendar's cold month (monthPrefetch.ts): the six weeks FullCalendar's month grid shows, so the month asked
 * for before its code loads is the one it asks for; and a post dropped from a crowded day's list onto another day
 * keeps its time of day in the calendar's zone (zonedCalendar.ts onDayOf), across a DST change.
 */
describe('the calendar month asked for ahead', () => {
  it('is the month grid FullCalendar shows: six weeks from the week of the 1st, Monday in Ukrainian, Sunday in English', () => {
    const now = new Date('2026-11-27T01:00:00Z');
    expect(monthGrid(now, 'uk')).toEqual({
      start: new Date('2026-10-26T00:00:00Z'),
      end: new Date('2026-12-07T00:00:00Z'),
    });
    // 1 November 2026 is a Sunday: the English grid starts on it.
    expect(monthGrid(now, 'en')).toEqual({
      start: new Date('2026-11-01T00:00:00Z'),
      end: new Date('2026-12-13T00:00:00Z'),
    });
    // A month whose 1st is a Monday starts on it.
    expect(monthGrid(new Date('2027-03-15T12:00:00Z'), 'uk').start).toEqual(new Date('2027-03-01T00:00:00Z'));
  });

  it('is asked in the operator zone, as the calendar converts its range', () => {
    const q = firstMonthQuery(new Date('2026-11-27T01:00:00Z'), 'uk');
    const grid = monthGrid(new Date('2026-11-27T01:00:00Z'), 'uk');
    expect(q).toEqual({
      start: fromCalendarTime(grid.start, q.zone).toISOString(),
      end: fromCalendarTime(grid.end, q.zone).toISOString(),
      zone: q.zone,
    });
  });

  it("opens on the zone's month, not UTC's: late on 30 November in UTC is already December in Kyiv", () => {
    const at = new Date('2026-11-30T23:30:00Z');
    expect(nowInCalendar('Europe/Kyiv', at)).toEqual(new Date('2026-12-01T01:30:00Z'));
    expect(nowInCalendar('America/New_York', at)).toEqual(new Date('2026-11-30T18:30:00Z'));
    // December 2026's grid (1 December is a Tuesday: from Monday 30 November), not November's.
    expect(monthGrid(nowInCalendar('Europe/Kyiv', at), 'uk').start).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(monthGrid(nowInCalendar('America/New_York', at), 'uk').start).toEqual(new Date('2026-10-26T00:00:00Z'));
  });

  it('is not taken when nothing was prefetched', () => {
    expect(takePrefetched({ start: 'a', end: 'b', zone: 'UTC' })).toBeUndefined();
  });
});

describe('a post dropped on another day of the month', () => {
  it('keeps its time of day in the zone, across a DST change', () => {
    // 18:00 in Kyiv on Saturday 28 March 2026 (EET, +2) → 18:00 on Monday 30 March (EEST, +3).
    expect(onDayOf(new Date('2026-03-30T00:00:00Z'), '2026-03-28T16:00:00.000Z', 'Europe/Kyiv').toISOString()).toBe(
      '2026-03-30T15:00:00.000Z',
    );
    expect(onDayOf(new Date('2026-12-03T00:00:00Z'), '2026-11-28T06:30:00.000Z', 'UTC').toISOString()).toBe(
      '2026-12-03T06:30:00.000Z',
    );
  });
});
