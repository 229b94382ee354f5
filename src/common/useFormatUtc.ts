import { useCallback } from 'react';
import { useLocaleState } from 'react-admin';
import { formatUtc } from './formatUtc';

/** formatUtc in the panel's current language (a date on an English screen reads 'Nov 26, 2026, 07:59:38'). */
export function useFormatUtc(): (value: Parameters<typeof formatUtc>[0]) => string {
  const [locale] = useLocaleState();
  return useCallback((value) => formatUtc(value, locale), [locale]);
}
