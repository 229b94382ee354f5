/** The panel's current locale, kept where non-React code (the HTTP client) can read it. */
export const LOCALE_KEY = 'kadr.locale';
export type Locale = 'uk' | 'en';

export const currentLocale = (): Locale => (localStorage.getItem(LOCALE_KEY) === 'en' ? 'en' : 'uk');
export const rememberLocale = (l: Locale) => localStorage.setItem(LOCALE_KEY, l);
