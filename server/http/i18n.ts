import { uk } from '../../i18n/uk';
import { en } from '../../i18n/en';
import { renderMessage } from '../../src/contract/stored-message';

type Tree = { [k: string]: string | Tree };
const catalogs: Record<string, Tree> = { uk: uk as unknown as Tree, en: en as unknown as Tree };

/** Picks the catalogue from Accept-Language (the panel sends its current locale); Ukrainian by default. */
export function localeOf(acceptLanguage: string | undefined): 'uk' | 'en' {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'uk';
}

function lookup(key: string, locale: 'uk' | 'en', args: Record<string, string | number>): string {
  let node: string | Tree | undefined = catalogs[locale];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  const text = typeof node === 'string' ? node : key;
  return text.replace(/%\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}

/**
 * Translates an i18n key such as `kadr.validation.required`, or a stored message (a key with JSON parameters,
 * src/contract/stored-message.ts); anything else is returned as is.
 */
export function translate(key: string, locale: 'uk' | 'en', args: Record<string, string | number> = {}): string {
  return renderMessage(key, (k, params) => lookup(k, locale, { ...params, ...args }));
}
