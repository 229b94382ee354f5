import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { joinParts } from '../../i18n/panelParts';
import { currentLocale, rememberLocale, type Locale } from './locale';
import { panelCoreOf, panelLaterOf, panelMessagesOf, signInMessagesOf } from './messageChunks';

const LOCALES = [
  { locale: 'uk', name: 'Українська' },
  { locale: 'en', name: 'English' },
];

/** The panel's messages, or the sign-in page's few (i18n/signIn.ts). */
export type MessagesFor = 'panel' | 'signIn';

type Messages = TranslationMessages;

let active: I18nProvider | undefined;
/** The panel's core part being loaded or loaded, in its language (restoreLocale('panel')). */
let panelCore: Promise<{ locale: Locale; core: Messages }> | undefined;
/** Language switches so far: the later part joins the language it was asked for only. */
let switches = 0;
/** The later part joining the core one (loadLaterMessages); once asked for, every later restore loads both. */
let later: Promise<void> | undefined;
let laterAskedFor = false;
/** The active language's messages are whole: the later part is in, or they were loaded whole. */
let whole = false;

/** Whether a screen's messages are all at hand now (lazyScreen renders a loaded screen without suspending then). */
export const laterMessagesIn = () => whole;

/** Polyglot, `messages` at hand for `locale` (it needs the first language's synchronously); any later switch loads. */
const make = (locale: Locale, messages: Messages, messagesOf: (l: Locale) => Promise<Messages>) => {
  let first = true;
  return polyglotI18nProvider(
    (l) => {
      const now = first && l === locale;
      first = false;
      return now ? messages : messagesOf(l as Locale);
    },
    locale,
    LOCALES,
    { allowMissing: true },
  );
};

/**
 * Loads the remembered language (it survives reloads and logouts) before the first render: polyglot needs the
 * first language's messages at hand; the other one loads when it is chosen. The signed-out page loads the
 * sign-in messages only. Signing in loads the panel's messages whole, or with `coreOnly` (a page whose screen
 * shows the core part only) that part only, until a screen asks for the rest (once one has, in this tab, every
 * later restore loads them whole: a screen's code stays loaded across a new sign-in).
 */
export async function restoreLocale(messagesFor: MessagesFor, { coreOnly = false }: { coreOnly?: boolean } = {}) {
  const locale = currentLocale();
  if (messagesFor === 'panel') {
    const all = !coreOnly || laterAskedFor;
    laterAskedFor ||= all;
    whole = false;
    const loading = (all ? panelMessagesOf(locale) : panelCoreOf(locale)).then((core) => ({ locale, core }));
    panelCore = loading;
    later = all ? loading.then(() => undefined) : undefined;
    const { core } = await loading;
    if (panelCore !== loading) return;
    if (all || !later) [active, whole] = [make(locale, core, panelMessagesOf), all];
    else await later;
  } else {
    [panelCore, later, whole] = [undefined, undefined, false];
    active = make(locale, await signInMessagesOf(locale), signInMessagesOf);
  }
  document.documentElement.lang = locale;
}

/**
 * The screens' sections of the panel's messages (i18n/panelParts.ts), joined to the active language's core part
 * once both have loaded. Every screen but the core-only ones waits for this with its code
 * (src/common/lazyScreen.ts); it starts loading at once, alongside the core part if that is still on its way.
 */
export function loadLaterMessages(): Promise<void> {
  laterAskedFor = true;
  const loading = panelCore;
  if (!loading) return Promise.resolve();
  later ??= (async () => {
    const [asked, at] = [currentLocale(), switches];
    const partNow = panelLaterOf(asked);
    const { locale, core } = await loading;
    const part = await (locale === asked ? partNow : panelLaterOf(locale));
    // A new sign-in, or another language (loaded whole), came meanwhile.
    if (panelCore !== loading || switches !== at) return;
    active = make(locale, joinParts(core, part), panelMessagesOf);
    whole = true;
  })();
  return later;
}

const provider = () => {
  if (!active) throw new Error('restoreLocale() runs before the panel renders');
  return active;
};

export const i18nProvider: I18nProvider = {
  translate: (key, options) => provider().translate(key, options),
  changeLocale: async (locale, options) => {
    // Another language loads whole (the language file, or the sign-in set on the signed-out page).
    switches++;
    laterAskedFor = true;
    await provider().changeLocale(locale, options);
    whole = true;
    rememberLocale(locale as Locale);
    document.documentElement.lang = locale;
  },
  getLocale: () => provider().getLocale(),
  getLocales: () => LOCALES,
};
