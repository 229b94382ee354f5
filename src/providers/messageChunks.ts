import type { TranslationMessages } from 'ra-core';
import type { Locale } from './locale';

// No polyglot here: src/boot.ts, the page's first script, starts the first messages' chunk through these too.

type Messages = TranslationMessages;

// Each language's messages are chunks of their own, a page loads the active language's only. The panel's load
// whole, or, on a page whose screen shows the shell's part only (the users list), in two parts (i18n/panelParts.ts):
// the core part before the first render, and the screens' sections with the first screen that shows them
// (loadLaterMessages).
export const panelCoreOf = (locale: Locale) =>
  (locale === 'en' ? import('virtual:panel-messages/en/core') : import('virtual:panel-messages/uk/core')).then(
    (m) => m.default,
  );
export const panelLaterOf = (locale: Locale) =>
  (locale === 'en' ? import('virtual:panel-messages/en/later') : import('virtual:panel-messages/uk/later')).then(
    (m) => m.default,
  );
export const panelMessagesOf = (locale: Locale): Promise<Messages> =>
  locale === 'en' ? import('../../i18n/en').then((m) => m.en) : import('../../i18n/uk').then((m) => m.uk);
export const signInMessagesOf = (locale: Locale) =>
  (locale === 'en' ? import('virtual:sign-in-messages/en') : import('virtual:sign-in-messages/uk')).then(
    (m) => m.default,
  );
