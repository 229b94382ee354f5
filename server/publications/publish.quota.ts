import type { Db } from '../db/index';
import type { PlatformKey } from '../../src/contract/platforms';
import { TIKTOK_POSTING_LIMITS } from '../platforms/index';

/**
 * Quota and rate limits counted in `platform_usage`, across every worker process (ARCHITECTURE.md): a publish
 * that would go over waits until the window frees a slot instead of failing (issue 8: "daily quota exhausted
 * mid-batch with every later post failing" never happens here).
 *
 * - YouTube: per profile (each profile is its own Google OAuth client, hence its own project quota): 10,000
 *   units a day and at most 100 videos.insert calls, the day ending at midnight Pacific time.
 * - TikTok: posts per creator in a rolling 24 h (Direct Post: about 15).
 * - Instagram: posts per account in a rolling 24 h (100; the platform's content_publishing_limit is asked too).
 *
 * A slot is taken by inserting the usage row first and counting after (own row included), so two workers racing
 * for the last slot cannot both go over: at worst both wait, and one takes it on its next look.
 */
export type QuotaKind = 'post' | 'units';

/** A slot taken (its usage rows, to give back when nothing was posted), or when one frees. */
export type QuotaSlot = { slot: number[]; until?: undefined } | { until: Date; slot?: undefined };

export type QuotaLimits = {
  youtubeDailyUnits: number;
  youtubeInsertsPerDay: number;
  youtubeInsertUnits: number;
  tiktokPostsPer24h: number;
  instagramPostsPer24h: number;
};

export const DEFAULT_QUOTA_LIMITS: QuotaLimits = {
  youtubeDailyUnits: 10_000,
  youtubeInsertsPerDay: 100,
  youtubeInsertUnits: 1,
  tiktokPostsPer24h: TIKTOK_POSTING_LIMITS.postsPer24h,
  instagramPostsPer24h: 100,
};

const DAY_MS = 24 * 3600_000;

/** The next midnight in America/Los_Angeles after `now` (YouTube's quota day), DST included. */
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

/** The start of YouTube's quota day containing `now`. */
const pacificDayStart = (now: Date) => new Date(nextPacificMidnight(now).getTime() - DAY_MS);

export class PublishQuota {
  constructor(
    private db: Db,
    private limits: QuotaLimits = DEFAULT_QUOTA_LIMITS,
  ) {}

  /**
   * Takes one post slot (and YouTube's upload units) for `accountId` on `platform`: the slot's usage rows, or the
   * moment a slot frees (and nothing is kept).
   */
  async take(platform: PlatformKey, accountId: number, now: Date): Promise<QuotaSlot> {
    const L = this.limits;
    if (platform === 'youtube') {
      const since = pacificDayStart(now);
      const ids = await this.insert(platform, accountId, now, [
        ['post', 1],
        ['units', L.youtubeInsertUnits],
      ]);
      const posts = await this.sum(platform, accountId, 'post', since);
      const units = await this.sum(platform, accountId, 'units', since);
      if (posts.total <= L.youtubeInsertsPerDay && units.total <= L.youtubeDailyUnits) return { slot: ids };
      await this.remove(ids);
      return { until: nextPacificMidnight(now) };
    }
    const limit = platform === 'tiktok' ? L.tiktokPostsPer24h : L.instagramPostsPer24h;
    const since = new Date(now.getTime() - DAY_MS);
    const ids = await this.insert(platform, accountId, now, [['post', 1]]);
    const posts = await this.sum(platform, accountId, 'post', since);
    if (posts.total <= limit) return { slot: ids };
    await this.remove(ids);
    // The window frees a slot when the oldest post in it turns 24 h old.
    return { until: new Date((posts.oldest ?? now.getTime()) + DAY_MS) };
  }

  /** Gives a slot back: the post was never made (refused before the platform created anything). */
  async giveBack(slot: number[]): Promise<void> {
    await this.remove(slot);
  }

  /** Records units spent by a read (stats, status) so the YouTube day counts them too. */
  async spend(platform: PlatformKey, accountId: number, units: number, now: Date): Promise<void> {
    if (units > 0) await this.insert(platform, accountId, now, [['units', units]]);
  }

  /** YouTube units left today for the profile (the stats job spends only what is left). */
  async youtubeUnitsLeft(accountId: number, now: Date): Promise<number> {
    const used = await this.sum('youtube', accountId, 'units', pacificDayStart(now));
    return Math.max(0, this.limits.youtubeDailyUnits - used.total);
  }

  private async insert(platform: PlatformKey, accountId: number, now: Date, rows: [QuotaKind, number][]) {
    const at = now.getTime();
    const ids: number[] = [];
    for (const [kind, amount] of rows) {
      const r = await this.db
        .insertInto('platformUsage')
        .values({ platform, accountId, kind, amount, at })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(r.id);
    }
    return ids;
  }

  private async remove(ids: number[]) {
    if (ids.length) await this.db.deleteFrom('platformUsage').where('id', 'in', ids).execute();
  }

  private async sum(platform: PlatformKey, accountId: number, kind: QuotaKind, since: Date) {
    const r = await this.db
      .selectFrom('platformUsage')
      .select((eb) => [eb.fn.sum<number | string>('amount').as('total'), eb.fn.min<number>('at').as('oldest')])
      .where('platform', '=', platform)
      .where('accountId', '=', accountId)
      .where('kind', '=', kind)
      .where('at', '>=', since.getTime())
      .executeTakeFirst();
    return { total: Number(r?.total ?? 0), oldest: r?.oldest == null ? null : Number(r.oldest) };
  }
}
