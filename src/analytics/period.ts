import type { AnalyticsPeriod } from '../contract/analytics';

/** The period the dashboard opens on (its first request can start with the page's first script: firstData.ts). */
export const DEFAULT_PERIOD: AnalyticsPeriod = '30';
