import type { CalendarFilter } from '../contract/calendar';
import { API, pathOf } from '../contract/endpoints';
import { currentLocale } from '../providers/locale';
import { earlyFetch, startEarlyGet } from '../providers/earlyGet';
import { operatorZone } from '../slots/operatorZone';
import { fromCalendarTime, nowInCalendar } from './zonedCalendar';

const DAY_MS = 24 * 3600_000;
/** A prefetched month older than this is asked for again. */
const FRESH_MS = 30_000;

export type DaysQuery = CalendarFilter & { start: string; end: string; zone: string };

/**
 * The dates FullCalendar's month grid shows around `now` (its clock runs in UTC, zonedCalendar.ts): six weeks from
 * the start of the week of the month's first day, weeks from Monday in Ukrainian and from Sunday in English.
 */
export function monthGrid(now: Date, locale: 'uk' | 'en'): { start: Date; end: Date } {
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const firstDay = locale === 'uk' ? 1 : 0;
  const start = first - ((new Date(first).getUTCDay() - firstDay + 7) % 7) * DAY_MS;
  return { start: new Date(start), end: new Date(start + 42 * DAY_MS) };
}

/** The query the calendar's month grid first sends: its six weeks in the operator's zone, no filter. */
export function firstMonthQuery(now = new Date(), locale = currentLocale()): DaysQuery {
  const zone = operatorZone();
  // The month FullCalendar opens on is the zone's (its clock: nowInCalendar).
  const grid = monthGrid(nowInCalendar(zone, now), locale);
  return {
    start: fromCalendarTime(grid.start, zone).toISOString(),
    end: fromCalendarTime(grid.end, zone).toISOString(),
    zone,
  };
}

const keyOf = (q: DaysQuery) =>
  JSON.stringify(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

let prefetched: { key: string; at: number; answer: Promise<unknown> } | undefined;

/**
 * A cold /calendar (src/boot.ts through startFirstData): the month's days (and its days over budget) asked for as soon as the page's first
 * script runs, while the panel's shell and the calendar's code load, instead of after they have loaded and drawn the
 * grid (this module is loaded first and kept small: no HTTP client, no schemas). The calendar checks the answer against its schema when
 * it takes it, and asks again through the dataProvider (which refreshes an expired token) if this one failed. Not
 * on a phone (it opens on the list view, which asks for posts, not days).
 */
export function prefetchMonth(): void {
  if (window.matchMedia('(max-width:599.95px)').matches) return;
  const query = firstMonthQuery();
  const url = pathOf(API.calendar.days, {}, query);
  // Its JSON is not checked here (the calendar checks it against the answer's schema when it takes it).
  const answer = earlyFetch(url).answer.then((res) =>
    res?.ok ? (res.json() as Promise<unknown>) : Promise.reject(new Error(`GET ${url}: ${res?.status ?? 'no answer'}`)),
  );
  answer.catch(() => undefined); // the calendar asks again
  prefetched = { key: keyOf(query), at: Date.now(), answer };
  // The days over budget it shades (useOverDays), the same range, no profile: the HTTP client takes this answer
  // when the calendar asks for exactly this URL, so the server works it out while the panel's code loads rather
  // than while the month is being drawn.
  startEarlyGet(pathOf(API.slots.overDays, {}, { start: query.start, end: query.end }));
}

/**
 * The prefetched answer (JSON, not yet checked) if it is for `query` and fresh (once: a later ask, such as a
 * refetch after a drag, goes to the server), else undefined.
 */
export function takePrefetched(query: DaysQuery): Promise<unknown> | undefined {
  const p = prefetched;
  prefetched = undefined;
  if (!p || p.key !== keyOf(query) || Date.now() - p.at > FRESH_MS) return undefined;
  return p.answer;
}
