import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider } from 'ra-core';
import { currentLocale, rememberLocale, type Locale } from './locale';

const LOCALES = [
  { locale: 'uk', name: 'Українська' },
  { locale: 'en', name: 'English' },
];

/** The panel's messages, or the sign-in page's few (i18n/signIn.ts). */
export type MessagesFor = 'panel' | 'signIn';

/** Each language's messages are a chunk of their own: a page loads the active language's only. */
const panelMessagesOf = (locale: Locale) =>
  locale === 'en' ? import('../../i18n/en').then((m) => m.en) : import('../../i18n/uk').then((m) => m.uk);
const signInMessagesOf = (locale: Locale) =>
  (locale === 'en' ? import('virtual:sign-in-messages/en') : import('virtual:sign-in-messages/uk')).then(
    (m) => m.default,
  );

let active: I18nProvider | undefined;

/**
 * Loads the remembered language (it survives reloads and logouts) before the first render: polyglot needs the
 * first language's messages at hand; the other one loads when it is chosen. The signed-out page loads the
 * sign-in messages only; signing in loads the panel's before the panel renders.
 */
export async function restoreLocale(messagesFor: MessagesFor) {
  const locale = currentLocale();
  const messagesOf = messagesFor === 'panel' ? panelMessagesOf : signInMessagesOf;
  const messages = await messagesOf(locale);
  active = polyglotI18nProvider((l) => (l === locale ? messages : messagesOf(l as Locale)), locale, LOCALES, {
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
