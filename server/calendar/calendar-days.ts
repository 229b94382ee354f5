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
