import { instantOf } from '../../src/contract/time-zones';

/**
 * The day a moment belongs to, as `YYYY-MM-DD`: the one place that decides where a stats day starts and ends
 * (the daily increments, the roll-up, the dashboard's ranges). UTC unless `zone` (an IANA time zone) is
 * given: the day tables are UTC's; the dashboard and a profile's curve are grouped in the viewer's or profile's zone.
 */
export function statDay(ms: number, zone?: string): string {
  if (!zone || zone === 'UTC') return new Date(ms).toISOString().slice(0, 10);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(new Date(ms))
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

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

/** The instant the day `day` starts in `zone` (its first valid minute, should a zone skip midnight). */
export function zoneDayStartMs(day: string, zone: string): number {
  const [year, month, d] = day.split('-').map(Number) as [number, number, number];
  return instantOf(zone, { year, month, day: d, hour: 0, minute: 0 }).getTime();
}

/** The start (epoch ms) of the UTC day `day`: the roll-up's cut falls on a day boundary. */
export const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
