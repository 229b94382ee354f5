import { format } from 'date-fns';

/** SPEC §9: dates are shown in UTC as DD.MM.YYYY, HH:MM:SS. Invalid or empty input gives ''. */
export function formatUtc(value: string | number | Date | null | undefined): string {
  if (value == null || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  // Shift by the local offset so date-fns (which formats local time) prints the UTC wall clock.
  const utc = new Date(d.getTime() + d.getTimezoneOffset() * 60_000);
  return format(utc, 'dd.MM.yyyy, HH:mm:ss');
}
