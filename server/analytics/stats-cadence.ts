/**
 * How often the stats job reads a post, by its age (since it went public): young posts often, old ones rarely,
 * so one pass spends its quota where the numbers move. The pass runs hourly; a post is due when its last read is
 * at least `everyMs` old (less a few minutes, so an hourly post is due on every hourly pass).
 */
export const STATS_CADENCE = [
  { youngerThanMs: 2 * 24 * 3600_000, everyMs: 3600_000 },
  { youngerThanMs: 14 * 24 * 3600_000, everyMs: 6 * 3600_000 },
  { youngerThanMs: Number.POSITIVE_INFINITY, everyMs: 24 * 3600_000 },
] as const;

/** Slack on each interval: the pass starts somewhere in its slot. */
export const CADENCE_SLACK_MS = 10 * 60_000;

/** Whether a post published at `publishedMs` and last read at `statsAtMs` is due for a read at `nowMs`. */
export function statsDue(publishedMs: number | null, statsAtMs: number | null, nowMs: number): boolean {
  if (statsAtMs === null) return true;
  const age = publishedMs === null ? Number.POSITIVE_INFINITY : nowMs - publishedMs;
  const step = STATS_CADENCE.find((c) => age < c.youngerThanMs)!;
  return statsAtMs <= nowMs - step.everyMs + CADENCE_SLACK_MS;
}
