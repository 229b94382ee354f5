import type { Db } from '../db/index';
import type { PlatformId } from '../platforms/types';
import type { PostQuota } from '../platforms/adapter';
import { nextPacificMidnight } from '../platforms/pacific-day';
import type { QuotaSlot } from '../platforms/publish-step';

/**
 * Quota and rate limits counted in `platform_usage`, across every worker process (ARCHITECTURE.md): a publish
 * that would go over waits until the window frees a slot instead of failing (issue 8: "daily quota exhausted
 * mid-batch with every later post failing" never happens here). Each platform's adapter says its limits
 * (`PostQuota`): posts per profile per window, the window ('pacific-day': YouTube's quota day, ending at
 * midnight Pacific time; 'rolling-24h'), and an API-unit budget where the platform counts units (YouTube).
 *
 * A slot is taken by inserting the usage row first and counting after (own row included), so two workers racing
 * for the last slot cannot both go over: at worst both wait, and one takes it on its next look.
 */
export type QuotaKind = 'post' | 'units';

/** Each platform's limits (its adapter's, with a test's overrides). */
export type QuotaLimits = Partial<Record<PlatformId, PostQuota>>;

const DAY_MS = 24 * 3600_000;

/** The start of the window containing `now`. */
const windowStart = (q: PostQuota, now: Date) =>
  new Date(q.window === 'pacific-day' ? nextPacificMidnight(now).getTime() - DAY_MS : now.getTime() - DAY_MS);

export class PublishQuota {
  constructor(
    private db: Db,
    private limits: QuotaLimits,
  ) {}

  /**
   * Takes one post slot (and its units, where the platform counts them) for `accountId` on `platform`: the slot's
   * usage rows, or the moment a slot frees (and nothing is kept). A platform without limits takes one always.
   */
  async take(platform: PlatformId, accountId: number, now: Date): Promise<QuotaSlot> {
    const q = this.limits[platform];
    if (!q) return { slot: [] };
    const since = windowStart(q, now);
    const ids = await this.insert(platform, accountId, now, [
      ['post', 1],
      ...(q.units ? [['units', q.units.perPost] as [QuotaKind, number]] : []),
    ]);
    const posts = await this.sum(platform, accountId, 'post', since);
    const units = q.units ? (await this.sum(platform, accountId, 'units', since)).total : 0;
    if (posts.total <= q.posts && (!q.units || units <= q.units.perWindow)) return { slot: ids };
    await this.remove(ids);
    // A quota day ends at its midnight; a rolling window frees a slot when its oldest post turns 24 h old.
    if (q.window === 'pacific-day') return { until: nextPacificMidnight(now) };
    return { until: new Date((posts.oldest ?? now.getTime()) + DAY_MS) };
  }

  /** Gives a slot back: the post was never made (refused before the platform created anything). */
  async giveBack(slot: number[]): Promise<void> {
    await this.remove(slot);
  }

  /** Records units spent by a read (stats, status) so the window counts them too. */
  async spend(platform: PlatformId, accountId: number, units: number, now: Date): Promise<void> {
    if (units > 0) await this.insert(platform, accountId, now, [['units', units]]);
  }

  /** Units left in the window for the profile (the stats job spends only what is left); unbounded without units. */
  async unitsLeft(platform: PlatformId, accountId: number, now: Date): Promise<number> {
    const q = this.limits[platform];
    if (!q?.units) return Number.POSITIVE_INFINITY;
    const used = await this.sum(platform, accountId, 'units', windowStart(q, now));
    return Math.max(0, q.units.perWindow - used.total);
  }

  /**
   * Units a read may spend now: those left in the window less what the posts the window still allows would cost,
   * so stats reads never eat the day's upload budget. Unbounded without units.
   */
  async unitsForReads(platform: PlatformId, accountId: number, now: Date): Promise<number> {
    const q = this.limits[platform];
    if (!q?.units) return Number.POSITIVE_INFINITY;
    const since = windowStart(q, now);
    const posts = await this.sum(platform, accountId, 'post', since);
    const reserve = Math.max(0, q.posts - posts.total) * q.units.perPost;
    return Math.max(0, (await this.unitsLeft(platform, accountId, now)) - reserve);
  }

  private async insert(platform: PlatformId, accountId: number, now: Date, rows: [QuotaKind, number][]) {
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

  private async sum(platform: PlatformId, accountId: number, kind: QuotaKind, since: Date) {
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
