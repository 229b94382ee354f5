import type { AnalyticsPeriod, Dashboard } from '../contract/analytics';
import { customMethods } from '../providers/customMethods';

/** The period the dashboard opens on. */
export const DEFAULT_PERIOD: AnalyticsPeriod = '30';
/** How long an early answer stays good for the page (a page that renders later asks again). */
const FRESH_MS = 10_000;

let early: { days: AnalyticsPeriod; at: number; answer: Promise<Dashboard> } | undefined;

/**
 * A cold page opened on /analytics asks for the dashboard together with the panel's code (firstScreen.ts), not
 * after the shell has loaded and rendered; the page takes that answer for its first query. Through the same
 * client as every call (its token refresh included).
 */
export function prefetchDashboard(days: AnalyticsPeriod = DEFAULT_PERIOD): void {
  const answer = customMethods.analyticsDashboard(days);
  answer.catch(() => undefined); // the page's own query reports a failure
  early = { days, at: Date.now(), answer };
}

/** The early answer for `days` if there is a fresh one (once: later queries ask the server). */
export function takePrefetchedDashboard(days: AnalyticsPeriod): Promise<Dashboard> | undefined {
  const e = early;
  early = undefined;
  return e && e.days === days && Date.now() - e.at < FRESH_MS ? e.answer : undefined;
}
