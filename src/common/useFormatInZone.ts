import { useCallback } from 'react';
import { useLocaleState } from 'react-admin';
import { formatInZone } from '../contract/time-zones';

/**
 * formatInZone in the panel's current language (issue 21 item 2): an instant as a profile's zone shows it, the
 * zone named ('29.03.2026, 18:00 Europe/Kyiv (GMT+3)'). Empty or invalid input gives ''.
 */
export function useFormatInZone(zone: string): (value: string | number | Date | null | undefined) => string {
  const [locale] = useLocaleState();
  return useCallback(
    (value) =>
      value == null || value === '' || Number.isNaN(new Date(value).getTime()) ? '' : formatInZone(value, zone, locale),
    [zone, locale],
  );
}
