import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository';
import type { PlatformConnections } from '../accounts/platform-connections';
import type { PlatformAdapter } from '../platforms/adapter';
import { adaptersOf, type PlatformRegistry } from '../platforms/registry';
import type { PlatformId } from '../platforms/types';
import type { PublishingRepository } from './publishing.repository';
import type { PublishQuota } from './publish.quota';
import type { StatsHistoryRepository } from '../analytics/stats-history.repository';

/** What a stats read needs of a published row. */
export type StatsRow = {
  id: number;
  videoId: number;
  accountId: number | null;
  remoteId: string | null;
  platform: PlatformId;
};

export type PublishStatsDeps = {
  repo: PublishingRepository;
  accounts: AccountsRepository;
  connections: PlatformConnections;
  quota: PublishQuota;
  platforms: PlatformRegistry;
  /** Where each read's snapshot and daily increments go (server/analytics); none: only the latest counters. */
  history?: StatsHistoryRepository;
  now?: () => Date;
  log?: FastifyBaseLogger;
};

/**
 * The stats pass (job `publication.stats`): for each platform of the registry, the published rows read longest ago
 * (its adapter's batch), grouped by profile, one batched read per profile through its proxy, within the platform's
 * quota (where it counts units, only the units left in its window after the posts the window still allows: a
 * read never spends the day's upload budget). Only posts due by their age are read (server/analytics/
 * stats-cadence.ts). Fills video_publishes counters, each read's snapshot and daily increments (the history), then
 * the videos' sums (main platform + Instagram).
 */
export class PublishStats {
  constructor(private deps: PublishStatsDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** One pass at `at` (now by default; a test passes a later hour to see the cadence and the history). */
  async run(at?: Date): Promise<{ read: number; failed: number }> {
    const clock = at ? () => at : () => this.now();
    let read = 0;
    let failed = 0;
    for (const adapter of adaptersOf(this.deps.platforms)) {
      const platform = adapter.id;
      const rows = await this.deps.repo.statsBatch(platform, adapter.stats.batch, clock());
      const byAccount = new Map<number, typeof rows>();
      for (const r of rows) byAccount.set(r.accountId!, [...(byAccount.get(r.accountId!) ?? []), r]);
      for (const [accountId, group] of byAccount) {
        const account = await this.deps.accounts.get(accountId);
        if (!account) continue;
        const now = clock();
        const perUnit = adapter.stats.idsPerUnit;
        const batch = perUnit
          ? group.slice(0, (await this.deps.quota.unitsForReads(platform, accountId, now)) * perUnit)
          : group;
        if (!batch.length) continue;
        try {
          read += await this.read(adapter, account, batch, now);
        } catch (err) {
          failed += batch.length;
          this.deps.log?.warn({ err, platform, accountId }, 'stats could not be read');
        }
      }
    }
    return { read, failed };
  }

  /**
   * One post's stats now (the panel's "refresh"): the same read as the pass, for one row, within the platform's
   * quota. The caller enforces the per-post cooldown. Answers 'no-quota' when the platform's window has no unit
   * left; a platform's refusal is thrown as it is (a PlatformError).
   */
  async readOne(row: StatsRow): Promise<'read' | 'no-quota'> {
    const adapter = this.deps.platforms[row.platform];
    const account = row.accountId ? await this.deps.accounts.get(row.accountId) : undefined;
    if (!adapter || !account || !row.remoteId) return 'no-quota';
    const now = this.now();
    if ((await this.deps.quota.unitsForReads(row.platform, account.id, now)) < 1) return 'no-quota';
    await this.read(adapter, account, [row], now);
    return 'read';
  }

  /** One batched read for one profile: counters saved, rows the platform no longer has marked read, sums updated. */
  private async read(adapter: PlatformAdapter, account: AccountRow, batch: StatsRow[], now: Date): Promise<number> {
    const { id: platform, stats: reading } = adapter;
    const stats = await this.deps.connections.callPlatform(account, platform, (_d, token, call) =>
      reading.read(
        call,
        token,
        batch.map((r) => r.remoteId!),
      ),
    );
    if (reading.idsPerUnit)
      await this.deps.quota.spend(platform, account.id, Math.ceil(batch.length / reading.idsPerUnit), now);
    const at = now.toISOString();
    const found = new Map(stats.map((s) => [s.id, s]));
    for (const r of batch) {
      const s = found.get(r.remoteId!);
      if (!s) continue;
      await this.deps.repo.saveStats(r.id, { views: s.views, likes: s.likes, comments: s.comments }, at);
      await this.deps.history?.record({ publishId: r.id, accountId: account.id, platform }, now.getTime(), {
        views: s.views,
        likes: s.likes,
        comments: s.comments,
        shares: s.shares ?? 0,
        saves: s.saves ?? 0,
      });
    }
    await this.deps.repo.touchStats(
      batch.filter((r) => !found.has(r.remoteId!)).map((r) => r.id),
      at,
    );
    await this.deps.repo.sumStats(batch.map((r) => r.videoId));
    return found.size;
  }
}
