/** YouTube's quota day ends at midnight in America/Los_Angeles, daylight saving time included. */

/** The next midnight in America/Los_Angeles after `now`. */
export function nextPacificMidnight(now: Date): Date {
  const parts = (d: Date) => {
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(d);
    const get = (t: string) => Number(f.find((p) => p.type === t)?.value);
    return { h: get('hour'), m: get('minute'), s: get('second') };
  };
  const { h, m, s } = parts(now);
  // Time left in the Pacific day, then correct by an hour when a DST change lies between.
  let at = new Date(now.getTime() + ((24 - h) * 3600 - m * 60 - s) * 1000 - now.getUTCMilliseconds());
  const p = parts(at);
  if (p.h !== 0) at = new Date(at.getTime() + (p.h >= 12 ? 24 - p.h : -p.h) * 3600_000);
  return at;
}
