import { instantOf, wallOf } from '../contract/time-zones';

const TYPED = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})[,\s]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$/;
const p2 = (n: number) => String(n).padStart(2, '0');

/**
 * A date typed as DD.MM.YYYY, HH:MM[:SS] in `zone` → its instant (ISO, `…Z`); null when it is not a real wall
 * time (31.02, 25:00). A time skipped by a DST change moves to the first valid minute after it; a repeated one
 * takes its first occurrence (src/contract/time-zones.ts).
 */
export function parseInZone(text: string, zone: string): string | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const [d, mo, y, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  const check = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  const real =
    check.getUTCFullYear() === y &&
    check.getUTCMonth() === mo! - 1 &&
    check.getUTCDate() === d &&
    check.getUTCHours() === h &&
    check.getUTCMinutes() === mi &&
    check.getUTCSeconds() === s;
  if (!real) return null;
  const at = instantOf(zone, { year: y!, month: mo!, day: d!, hour: h!, minute: mi! });
  return new Date(at.getTime() + s! * 1000).toISOString();
}

/** An ISO instant as DD.MM.YYYY, HH:MM:SS in `zone` ('' for anything else). */
export function showInZone(iso: unknown, zone: string): string {
  if (typeof iso !== 'string' || !/^\d{4}-\d\d-\d\dT/.test(iso) || Number.isNaN(Date.parse(iso))) return '';
  const w = wallOf(zone, iso);
  return `${p2(w.day)}.${p2(w.month)}.${w.year}, ${p2(w.hour)}:${p2(w.minute)}:${p2(w.second)}`;
}
