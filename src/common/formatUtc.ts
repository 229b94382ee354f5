/** SPEC §9: dates are shown in UTC as DD.MM.YYYY, HH:MM:SS. Invalid or empty input gives ''. */
export function formatUtc(value: string | number | Date | null | undefined): string {
  if (value == null || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  // From the UTC fields themselves: shifting by the local offset goes wrong an hour around DST changes.
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
