/** A wait as the Jobs screen says it: the i18n key of its unit and the rounded count (ms under a second). */
export function lagText(ms: number): { key: string; n: number } {
  if (ms < 1000) return { key: 'kadr.jobs.lag_ms', n: Math.round(ms) };
  if (ms < 60_000) return { key: 'kadr.jobs.lag_s', n: Math.round(ms / 1000) };
  if (ms < 3_600_000) return { key: 'kadr.jobs.lag_min', n: Math.round(ms / 60_000) };
  return { key: 'kadr.jobs.lag_h', n: Math.round(ms / 3_600_000) };
}
