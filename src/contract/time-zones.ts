import { tzOffset } from '@date-fns/tz';

/**
 * Time zones (issue 21 item 2): each profile has an IANA zone; dates are shown and entered in it and stored as UTC
 * instants. The one conversion both sides use: a wall-clock time in a zone → an instant, with the rules of the
 * research notes (planning-and-trust.md): a time in a spring-forward gap moves to the first valid minute after
 * it (Kyiv's 03:30 on the last Sunday of March is 04:00), a time in an autumn overlap takes its first
 * occurrence (New York's 01:30 on the first Sunday of November is 01:30 EDT). Offsets come from the runtime's
 * tzdata through @date-fns/tz (`tzOffset`), never from hard-coded rules.
 */

/** Validation messages (i18n keys). */
export const TZM = {
  invalid: 'kadr.validation.time_zone_invalid',
} as const;

/** The zone a profile without one is planned in (the server cannot know a browser's). */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Whether the runtime knows `zone` as an IANA name ('UTC' included; offsets like '+02:00' are not zones). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone || zone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A wall-clock time: month 1–12, weekday 1 (Monday) – 7 (Sunday). */
export type Wall = { year: number; month: number; day: number; hour: number; minute: number };
export type WallWithWeekday = Wall & { second: number; weekday: number };

const MIN = 60_000;
const offsetAt = (zone: string, ms: number) => tzOffset(zone, new Date(ms));

/** The wall-clock time of an instant in `zone`. */
export function wallOf(zone: string, at: Date | string | number): WallWithWeekday {
  const ms = new Date(at).getTime();
  const local = new Date(ms + offsetAt(zone, ms) * MIN);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    weekday: local.getUTCDay() || 7,
  };
}

/**
 * The instant a wall-clock time in `zone` names. In a gap: the first valid minute after it; in an overlap: the
 * first occurrence. The wall time is normalised first (day 32 is the next month's first).
 */
export function instantOf(zone: string, w: Wall): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  // The offsets a day either side: every real zone changes at most once in such a span.
  const before = offsetAt(zone, guess - 86_400_000);
  const after = offsetAt(zone, guess + 86_400_000);
  const valid = [before, after]
    .map((off) => guess - off * MIN)
    .filter((ms) => offsetAt(zone, ms) * MIN === guess - ms)
    .sort((a, b) => a - b);
  if (valid.length) return new Date(valid[0]!);
  // A gap: the transition itself (whose wall time is the gap's end), found to the minute.
  let lo = guess - Math.max(before, after) * MIN; // still the old offset
  let hi = guess - Math.min(before, after) * MIN; // already the new one
  while (hi - lo > MIN) {
    const mid = lo + Math.floor((hi - lo) / 2 / MIN) * MIN;
    if (offsetAt(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

/** The day after a wall date (calendar arithmetic, never + 24 h). */
export function nextDay(w: Pick<Wall, 'year' | 'month' | 'day'>): Pick<Wall, 'year' | 'month' | 'day'> {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `YYYY-MM-DD` of a wall date (a day's key in the capacity view). */
export const dayKey = (w: Pick<Wall, 'year' | 'month' | 'day'>) =>
  `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;

/** The zone's short name at an instant ('EEST', 'GMT+3', 'EST'), as the runtime writes it in `locale`. */
export function zoneAbbreviation(zone: string, at: Date | string | number, locale = 'en'): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(new Date(at));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/**
 * A zone named for people: its IANA name and its short name at an instant, 'Europe/Kyiv (EEST)'; a zone whose
 * short name is its name ('UTC') is named once.
 */
export function zoneLabel(zone: string, at: Date | string | number, locale = 'en'): string {
  const short = zoneAbbreviation(zone, at, locale);
  return short.toLowerCase() === zone.toLowerCase() ? zone : `${zone} (${short})`;
}

/**
 * Zone labels by zone, offset and language: a label is the same for every instant at one offset, and making one
 * builds an Intl formatter (a page of 100 import rows made 100).
 */
const labels = new Map<string, string>();

/** An instant as DD.MM.YYYY, HH:MM in `zone`, with the zone named: '29.03.2026, 18:00 Europe/Kyiv (EEST)'. */
export function formatInZone(at: Date | string | number, zone: string, locale = 'en'): string {
  const ms = new Date(at).getTime();
  const w = wallOf(zone, ms);
  const p = (n: number) => String(n).padStart(2, '0');
  const key = `${zone}|${offsetAt(zone, ms)}|${locale}`;
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = zoneLabel(zone, ms, locale)));
  return `${p(w.day)}.${p(w.month)}.${w.year}, ${p(w.hour)}:${p(w.minute)} ${label}`;
}
