/**
 * The day a moment belongs to, as `YYYY-MM-DD`: the one place that decides where a stats day starts and ends
 * (the daily increments, the roll-up, the dashboard's ranges). UTC for now; `zone` (an IANA time zone) is the
 * seam for per-profile time zones.
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

/** The start (epoch ms) of the UTC day `day`: the roll-up's cut falls on a day boundary. */
export const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
