import { dayKey, instantOf, nextDay, wallOf } from '../../src/contract/time-zones';

/** The days a range is cut into in a zone: their keys, and their first instants followed by the range's end. */
export type RangeDays = { keys: string[]; bounds: string[] };

/**
 * The month view's days (issue 21): [start, end) cut at each local midnight of `zone` (calendar arithmetic, so a
 * 23- or 25-hour day around a DST change is one day), the first and last days cut short by the range if it starts
 * or ends mid-day. `bounds` has one more entry than `keys`: day i is [bounds[i], bounds[i + 1]).
 */
export function rangeDays(start: string, end: string, zone: string): RangeDays {
  const endMs = Date.parse(end);
  const keys: string[] = [];
  const bounds: string[] = [new Date(start).toISOString()];
  let d: { year: number; month: number; day: number } = wallOf(zone, start);
  for (;;) {
    keys.push(dayKey(d));
    d = nextDay(d);
    const next = instantOf(zone, { ...d, hour: 0, minute: 0 });
    if (next.getTime() >= endMs) break;
    bounds.push(next.toISOString());
  }
  bounds.push(new Date(endMs).toISOString());
  return { keys, bounds };
}

/** A day of the month view as the server reads it: its index in the range's days, its count, its first posts' ids. */
export type DayHead = { day: number; count: number; ids: number[] };

/**
 * Puts posts (id, and the instant each is drawn at) in the days of `bounds` (day i is [bounds[i], bounds[i + 1]),
 * found by halving), each day's posts ordered as the calendar draws them (by that instant, then id): per day with
 * posts, its count and its first `perDay` ids. Posts outside the days are left out.
 */
export function firstOfDays(posts: Array<{ id: number; at: string }>, bounds: string[], perDay: number): DayHead[] {
  const last = bounds.length - 1;
  const days = new Map<number, Array<{ id: number; at: string }>>();
  for (const p of posts) {
    if (p.at < bounds[0]! || p.at >= bounds[last]!) continue;
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (p.at < bounds[mid]!) hi = mid;
      else lo = mid;
    }
    const day = days.get(lo) ?? [];
    if (!day.length) days.set(lo, day);
    day.push(p);
  }
  return [...days]
    .sort(([a], [b]) => a - b)
    .map(([day, list]) => ({
      day,
      count: list.length,
      ids: list
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id))
        .slice(0, perDay)
        .map((p) => p.id),
    }));
}
