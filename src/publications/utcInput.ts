import { formatUtc } from '../common/formatUtc';

const TYPED = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})[,\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/;

/**
 * SPEC §9: dates are shown and entered in UTC as DD.MM.YYYY, HH:MM:SS. What a person typed → an ISO instant
 * (`…Z`); null when it is not a real date (31.02, 25:00).
 */
export function parseUtc(text: string): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const [d, mo, y, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  const ok =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return ok ? date.toISOString() : null;
}

/** An ISO instant as the date field shows it ('' for anything else). */
export const showUtc = (iso: unknown) =>
  typeof iso === 'string' && /^\d{4}-\d\d-\d\dT/.test(iso) ? formatUtc(iso) : '';

/** Now, to the second (SPEC §9: a new publication's date defaults to now). */
export const nowIso = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
