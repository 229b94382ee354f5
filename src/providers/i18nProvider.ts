import polyglotI18nProvider from 'ra-i18n-polyglot';
import { uk } from '../../i18n/uk';
import { currentLocale, rememberLocale, type Locale } from './locale';

/** Ukrainian is bundled (the default must be synchronous); English loads on demand. */
const base = polyglotI18nProvider(
  (locale) => (locale === 'en' ? import('../../i18n/en').then((m) => m.en) : uk) as any,
  'uk',
  [
    { locale: 'uk', name: 'Українська' },
    { locale: 'en', name: 'English' },
  ],
  { allowMissing: true },
);

export const i18nProvider = {
  ...base,
  changeLocale: async (locale: string) => {
    await base.changeLocale(locale);
    rememberLocale(locale as Locale);
    document.documentElement.lang = locale;
  },
};

/** Applies the remembered language before the first render (it survives reloads and logouts). */
export async function restoreLocale() {
  const l = currentLocale();
  if (l !== 'uk') await i18nProvider.changeLocale(l);
}
