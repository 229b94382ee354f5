import { DEFAULT_TIME_ZONE, instantOf, isTimeZone } from '../../src/contract/time-zones';

/**
 * The day a moment belongs to, as `YYYY-MM-DD`: the one place that decides where a stats day starts and ends
 * (the daily increments, the roll-up, the dashboard's ranges). `zone` is the post's profile's IANA time zone
 * (a profile without one counts in UTC, as it is planned); a day there lasts 23, 24 or 25 hours.
 */
export function statDay(ms: number, zone: string = DEFAULT_TIME_ZONE): string {
  if (zone === 'UTC') return new Date(ms).toISOString().slice(0, 10);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date(ms))
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The zone a profile's stats days are counted in: its own, or UTC where it has none (as it is planned). */
export const profileZone = (timeZone: string | null | undefined): string =>
  timeZone && isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;

const DAY_MS = 24 * 3600_000;

/** The day `n` days before `day` (calendar arithmetic on the date itself, whatever the zone). */
export function dayBefore(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included, in order. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS)
    out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

/**
 * The instant (epoch ms) the day `day` starts in `zone`: its local midnight, or the first valid minute after it
 * where a clock change skips midnight. The roll-up's cut falls on such a boundary, so a local day is never split.
 */
export function dayStartMs(day: string, zone: string = DEFAULT_TIME_ZONE): number {
  if (zone === 'UTC') return Date.parse(`${day}T00:00:00Z`);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return instantOf(zone, { year, month, day: date, hour: 0, minute: 0 }).getTime();
}

/** The latest of the days `ms` falls on in each of `zones` (today for a chart whose days are in several zones). */
export function latestDay(ms: number, zones: (string | null)[]): string {
  const days = (zones.length ? zones : [null]).map((z) => statDay(ms, profileZone(z)));
  return days.reduce((a, b) => (b > a ? b : a));
}
