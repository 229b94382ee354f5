import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'ra-core';
import { currentLocale, rememberLocale, type Locale } from './locale';

const LOCALES = [
  { locale: 'uk', name: 'Українська' },
  { locale: 'en', name: 'English' },
];

/** Each language's messages are a chunk of their own: a page loads the active language's only. */
const messagesOf = (locale: Locale) =>
  locale === 'en' ? import('../../i18n/en').then((m) => m.en) : import('../../i18n/uk').then((m) => m.uk);

let active: I18nProvider | undefined;

/**
 * Loads the remembered language (it survives reloads and logouts) before the first render: polyglot needs the
 * first language's messages at hand; the other one loads when it is chosen.
 */
export async function restoreLocale() {
  const locale = currentLocale();
  const messages = await messagesOf(locale);
  active = polyglotI18nProvider((l) => (l === locale ? messages : messagesOf(l as Locale)) as any, locale, LOCALES, {
    allowMissing: true,
  });
  document.documentElement.lang = locale;
}

const provider = () => {
  if (!active) throw new Error('restoreLocale() runs before the panel renders');
  return active;
};

export const i18nProvider: I18nProvider = {
  translate: (key, options) => provider().translate(key, options),
  changeLocale: async (locale, options) => {
    await provider().changeLocale(locale, options);
    rememberLocale(locale as Locale);
    document.documentElement.lang = locale;
  },
  getLocale: () => provider().getLocale(),
  getLocales: () => LOCALES,
};
