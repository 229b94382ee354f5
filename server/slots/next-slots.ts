import { instantOf, nextDay, wallOf, type Wall } from '../../src/contract/time-zones';
import type { PostQuota } from '../platforms/adapter';

/**
 * The next free posting slots (issue 21 item 3), a pure function: the queue (server/slots/slots.service.ts) and
 * the CSV import's "next slot" rows call it.
 *
 * A profile's slots on one platform are weekly wall-clock times in its zone ("Mon–Fri 09:00 and 18:00"). Each
 * candidate is computed from the local date and time, then converted (never "+24 h"), so 18:00 stays 18:00 local
 * across DST changes; a time in a spring-forward gap moves to the first valid minute after it, one in an autumn
 * overlap takes its first occurrence (src/contract/time-zones.ts). A candidate is free when no post of the
 * profile on that platform is planned at it or closer than the minimum gap, and when one more post there stays
 * within the platform's budget for the profile: posts (and API units, YouTube) per window, the window being
 * YouTube's quota day (midnight to midnight Pacific time) or any rolling 24 h (TikTok, Instagram).
 */
export type SlotRule = {
  /** Weekdays, 1 Monday … 7 Sunday. */
  days: readonly number[];
  /** 'HH:MM' in the zone. */
  times: readonly string[];
  minGapMinutes: number;
};

export type NextSlotsInput = {
  zone: string;
  rule: SlotRule;
  /** The platform's limits for one profile (its adapter's); none: only the slots and the gap count. */
  budget?: PostQuota | undefined;
  /** Posts of this profile on this platform already planned (or made) around the time searched. */
  taken: readonly Date[];
  /** Slots strictly after this instant. */
  after: Date;
  count: number;
  /** How many local days ahead to look (default 60). */
  searchDays?: number;
};

const DAY_MS = 24 * 3600_000;
const PACIFIC = 'America/Los_Angeles';

const pacificDay = (ms: number) => {
  const w = wallOf(PACIFIC, ms);
  return `${w.year}-${w.month}-${w.day}`;
};

/** Whether one more post at `t` keeps every window of the budget that holds it within the limits. */
export function fitsBudget(budget: PostQuota | undefined, taken: readonly number[], t: number): boolean {
  if (!budget) return true;
  const fits = (n: number) =>
    n <= budget.posts && (!budget.units || n * budget.units.perPost <= budget.units.perWindow);
  if (budget.window === 'pacific-day') {
    const day = pacificDay(t);
    return fits(taken.filter((x) => Math.abs(x - t) < DAY_MS && pacificDay(x) === day).length + 1);
  }
  // Rolling 24 h: the fullest window holding t starts at t or at a post in the 24 h before it.
  const all = [...taken, t];
  const starts = all.filter((s) => s <= t && s > t - DAY_MS);
  return starts.every((s) => fits(all.filter((x) => x >= s && x < s + DAY_MS).length));
}

/** 'HH:MM' → [hour, minute], sorted. */
const timesOf = (times: readonly string[]) =>
  [...new Set(times)]
    .map((t) => t.split(':').map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);

/** The next `count` free slots after `after`, in time order (fewer when the search days run out). */
export function nextSlots(input: NextSlotsInput): Date[] {
  const { zone, rule, budget, after, count } = input;
  const gap = rule.minGapMinutes * 60_000;
  const taken = input.taken.map((d) => d.getTime());
  const days = new Set(rule.days);
  const times = timesOf(rule.times);
  const found: Date[] = [];
  if (!days.size || !times.length || count <= 0) return found;
  let day: Pick<Wall, 'year' | 'month' | 'day'> = wallOf(zone, after);
  for (let n = 0; n <= (input.searchDays ?? 60) && found.length < count; n++, day = nextDay(day)) {
    const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() || 7;
    if (!days.has(weekday)) continue;
    for (const [hour, minute] of times) {
      if (found.length >= count) break;
      const t = instantOf(zone, { ...day, hour, minute }).getTime();
      if (t <= after.getTime()) continue;
      const clash = taken.some((x) => x === t || Math.abs(x - t) < gap);
      if (clash || !fitsBudget(budget, taken, t)) continue;
      taken.push(t);
      found.push(new Date(t));
    }
  }
  return found;
}
