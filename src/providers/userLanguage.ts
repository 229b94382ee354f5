import { API } from '../contract/endpoints';
import type { LoginResponse } from '../contract/auth';
import { currentLocale, rememberLocale } from './locale';
import { store } from './store';

/**
 * The interface language is the user's, not the browser's: it is saved on the server when chosen (Settings, or the
 * sign-in page) and comes back with every sign-in. After a sign-in, a language chosen on the sign-in page
 * (react-admin's store holds it from then until the next sign-out, which clears the store) becomes the user's own;
 * else the user's own, when they have one, is the one the panel opens in here. Runs before the panel's messages
 * load (restoreLocale reads the remembered language).
 */
export function adoptLanguage(answer: Pick<LoginResponse, 'language' | 'accessToken'>): void {
  const chosen = store.getItem<string>('locale');
  if (chosen === 'uk' || chosen === 'en') {
    if (chosen !== answer.language) void saveLanguage(chosen, answer.accessToken);
    return;
  }
  if (answer.language && answer.language !== currentLocale()) rememberLocale(answer.language);
}

/**
 * The language saved as the user's (API.auth.language, PUT) with the session just made; best effort: the choice
 * holds in this browser anyway.
 */
const saveLanguage = (language: string, accessToken: string) =>
  fetch(API.auth.language, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ language }),
  }).catch(() => undefined);
