import { readAuth } from './authStore';
import { currentLocale } from './locale';

/**
 * A GET asked for ahead of the screen that reads it, from a cold page's first script (src/calendar/monthPrefetch.ts):
 * a plain fetch with the stored access token, small enough to load before the panel's HTTP client. Its JSON is not
 * checked here (the screen checks it against the answer's schema when it takes it) and nothing is refreshed: the
 * screen asks again through the dataProvider if it failed. Undefined when signed out.
 */
export function prefetchJson(url: string): Promise<unknown> | undefined {
  const { accessToken } = readAuth();
  if (!accessToken) return undefined;
  const answer = fetch(url, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${accessToken}`, 'Accept-Language': currentLocale() },
    credentials: 'include',
  }).then((res) => (res.ok ? res.json() : Promise.reject(new Error(`GET ${url}: ${res.status}`))));
  answer.catch(() => undefined); // the screen asks again
  return answer;
}
