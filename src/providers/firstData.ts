import { API, withQuery } from '../contract/endpoints';
import { startEarlyGet } from './earlyGet';

/**
 * What a signed-in cold page asks the API for first, started by main.tsx before the panel's code has loaded: the
 * list's first page at its default sort (every list keeps its params in the URL only, `storeKey={false}`, so with
 * no query string the list asks for exactly this URL; src/providers/httpClient.ts takes the answer), and the
 * contract modules that parse the answers (the bell's and the list's), which otherwise load only once the call is
 * made. A list whose params or defaults change and no longer match just fetches as before.
 */
const live = () => import('../contract/live');
const http = () => import('../contract/http');
const ai = () => import('../contract/ai');
// The AI service's lists come from the panel's origin unless it has its own (src/providers/aiClient.ts).
const aiHere = !import.meta.env?.VITE_AI_BASE_URL;
const firstPage = (path: string, order: 'ASC' | 'DESC') => withQuery(path, { page: 1, sort: 'id', order });

const FIRST: Record<string, { url: string; contract: () => Promise<unknown> } | undefined> = {
  '/users': { url: firstPage(API.users.collection, 'ASC'), contract: () => import('../contract/users') },
  '/accounts/list': { url: firstPage(API.accounts.collection, 'DESC'), contract: () => import('../contract/accounts') },
  '/accounts/group/list': {
    url: firstPage(API.groups.collection, 'DESC'),
    contract: () => import('../contract/groups'),
  },
  '/tags': { url: firstPage(API.tags.collection, 'DESC'), contract: () => import('../contract/tags') },
  '/photos': { url: firstPage(API.backgrounds.folders, 'DESC'), contract: () => import('../contract/backgrounds') },
  '/video/request-create': {
    url: firstPage(API.videos.requests, 'DESC'),
    contract: () => import('../contract/videos'),
  },
  '/video/list': {
    url: firstPage(API.publications.collection, 'DESC'),
    contract: () => import('../contract/publications'),
  },
  ...(aiHere && {
    '/ai/list': { url: firstPage(API.ai.sessions, 'ASC'), contract: ai },
    '/ai/video': { url: firstPage(API.ai.videos, 'ASC'), contract: ai },
    '/ai/logs': { url: firstPage(API.ai.logs, 'ASC'), contract: ai },
  }),
};

/** Starts the first requests of the page at `location` (signed in). Failures are left to the calls themselves. */
export function startFirstData(location: { pathname: string; search: string }): void {
  const ignore = () => undefined;
  void live().catch(ignore);
  const first = location.search ? undefined : FIRST[location.pathname.replace(/(.)\/$/, '$1')];
  if (!first) return;
  startEarlyGet(first.url);
  void http().catch(ignore);
  void first.contract().catch(ignore);
}
