import { API, pathOf, withQuery } from '../contract/endpoints';
import { DEFAULT_PERIOD } from '../analytics/period';
import { startEarlyGet } from './earlyGet';

/**
 * What a signed-in cold page asks the API for first, started by the page's first script (src/boot.ts) before the panel's code has loaded: a
 * list's first page at its default sort, the dashboard at its default period. Every list keeps its params in the URL only (`storeKey={false}`),
 * so with no query string the list asks for exactly this URL, and src/providers/httpClient.ts takes the answer
 * instead of asking again. A list whose defaults change and no longer match this just fetches as before. (The
 * contracts that parse the first answers load early too: src/firstScreen.ts.)
 */
const firstPage = (path: string, order: 'ASC' | 'DESC') => withQuery(path, { page: 1, sort: 'id', order });
// The AI service's lists come from the panel's origin unless it has its own (src/providers/aiClient.ts).
const aiHere = !import.meta.env?.VITE_AI_BASE_URL;

const FIRST: Record<string, string | undefined> = {
  '/users': firstPage(API.users.collection, 'ASC'),
  '/accounts/list': firstPage(API.accounts.collection, 'DESC'),
  '/accounts/group/list': firstPage(API.groups.collection, 'DESC'),
  '/tags': firstPage(API.tags.collection, 'DESC'),
  '/photos': firstPage(API.backgrounds.folders, 'DESC'),
  '/video/request-create': firstPage(API.videos.requests, 'DESC'),
  '/video/list': firstPage(API.publications.collection, 'DESC'),
  // The dashboard opens on its default period (what the page waits for).
  '/analytics': pathOf(API.analytics.dashboard, {}, { days: DEFAULT_PERIOD }),
  ...(aiHere && {
    '/ai/list': firstPage(API.ai.sessions, 'ASC'),
    '/ai/video': firstPage(API.ai.videos, 'ASC'),
    '/ai/logs': firstPage(API.ai.logs, 'ASC'),
  }),
};

/** A page's path without a trailing slash, as the tables of first requests and first screens name it. */
export const pathOfPage = (pathname: string) => pathname.replace(/(.)\/$/, '$1');

/**
 * The pages whose screen shows the core part of the messages only (`coreOnly` in src/users/index.ts): a cold one
 * loads that part only (i18n/panelParts.ts); every other page loads the messages whole.
 */
export const coreOnlyPage = (pathname: string) => pathOfPage(pathname) === '/users';

/**
 * Starts the first request of the page at `location` (signed in): a list's first page, the dashboard, or the
 * calendar's month (its query depends on the zone and language: src/calendar/monthPrefetch.ts, a small module of
 * its own); nothing for other pages.
 */
export function startFirstData(location: { pathname: string; search: string }): void {
  const at = pathOfPage(location.pathname);
  if (at === '/calendar') void import('../calendar/monthPrefetch').then((m) => m.prefetchMonth());
  const url = location.search ? undefined : FIRST[at];
  if (url) startEarlyGet(url);
}
