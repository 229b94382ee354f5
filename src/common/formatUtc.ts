const OTHER = new Map<string, Intl.DateTimeFormat>();

/** Another language's own way of writing a date, in UTC, to the second, on a 24-hour clock. */
const formatIn = (locale: string) => {
  let f = OTHER.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    OTHER.set(locale, f);
  }
  return f;
};

/**
 * SPEC §9: dates are shown in UTC as DD.MM.YYYY, HH:MM:SS, the panel's Ukrainian; another language writes them
 * its own way, still in UTC ('en': 'Nov 26, 2026, 07:59:38'). Invalid or empty input gives ''.
 */
export function formatUtc(value: string | number | Date | null | undefined, locale = 'uk'): string {
  if (value == null || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  if (locale !== 'uk') return formatIn(locale).format(d);
  // From the UTC fields themselves: shifting by the local offset goes wrong an hour around DST changes.
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
