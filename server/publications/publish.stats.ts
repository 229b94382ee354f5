import type { FastifyBaseLogger } from 'fastify';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository';
import type { PlatformConnections } from '../accounts/platform-connections';
import { InstagramPublisher, TikTokPublisher, type PlatformsConfig } from '../platforms/index';
import type { PlatformHttp } from '../platforms/http';
import type { VideoStats } from '../platforms/publish-types';
import type { PlatformKey } from '../../src/contract/platforms';
import type { PublishRepository } from './publish.repository';
import type { PublishQuota } from './publish.quota';

/** Rows read per platform per pass: YouTube reads 50 a unit, TikTok 20 a call, Instagram two calls a post. */
export const STATS_BATCH: Record<PlatformKey, number> = { youtube: 500, tiktok: 200, instagram: 100 };

/** What a stats read needs of a published row. */
export type StatsRow = {
  id: number;
  videoId: number;
  accountId: number | null;
  remoteId: string | null;
  platform: PlatformKey;
};

export type StatsReader = (http: PlatformHttp, token: string, ids: string[]) => Promise<VideoStats[]>;

export type PublishStatsDeps = {
  repo: PublishRepository;
  accounts: AccountsRepository;
  connections: PlatformConnections;
  quota: PublishQuota;
  platforms: PlatformsConfig;
  /** YouTube's reader (the YouTube publisher's `stats`), when YouTube publishing is wired. */
  youtube?: StatsReader;
  now?: () => Date;
  log?: FastifyBaseLogger;
};

/**
 * The stats pass (job `publication.stats`): for each platform, the published rows read longest ago, grouped by
 * profile, one batched read per profile through its proxy, within the platform's quota (YouTube spends only the
 * units left today). Fills video_publishes counters, then the videos' sums (main platform + Instagram).
 */
export class PublishStats {
  constructor(private deps: PublishStatsDeps) {}

  private readers(): Partial<Record<PlatformKey, StatsReader>> {
    return {
      tiktok: (http, token, ids) =>
        new TikTokPublisher({ http, baseUrls: this.deps.platforms.tiktok.baseUrls }).stats(token, ids),
      instagram: (http, token, ids) =>
        new InstagramPublisher({ http, baseUrls: this.deps.platforms.instagram.baseUrls }).stats(token, ids),
      youtube: this.deps.youtube,
    };
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  async run(): Promise<{ read: number; failed: number }> {
    let read = 0;
    let failed = 0;
    for (const [platform, reader] of Object.entries(this.readers()) as [PlatformKey, StatsReader | undefined][]) {
      if (!reader) continue;
      const rows = await this.deps.repo.statsBatch(platform, STATS_BATCH[platform]);
      const byAccount = new Map<number, typeof rows>();
      for (const r of rows) byAccount.set(r.accountId!, [...(byAccount.get(r.accountId!) ?? []), r]);
      for (const [accountId, group] of byAccount) {
        const account = await this.deps.accounts.get(accountId);
        if (!account) continue;
        const now = this.now();
        let batch = group;
        if (platform === 'youtube') {
          const units = await this.deps.quota.youtubeUnitsLeft(accountId, now);
          batch = group.slice(0, units * 50);
          if (!batch.length) continue;
        }
        try {
          read += await this.read(platform, reader, account, batch, now);
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
   * quota. The caller enforces the per-post cooldown. Answers 'no-quota' when YouTube has no unit left today
   * or the platform has no reader; a platform's refusal is thrown as it is (a PlatformError).
   */
  async readOne(row: StatsRow): Promise<'read' | 'no-quota'> {
    const reader = this.readers()[row.platform];
    const account = row.accountId ? await this.deps.accounts.get(row.accountId) : undefined;
    if (!reader || !account || !row.remoteId) return 'no-quota';
    const now = this.now();
    if (row.platform === 'youtube' && (await this.deps.quota.youtubeUnitsLeft(account.id, now)) < 1) return 'no-quota';
    await this.read(row.platform, reader, account, [row], now);
    return 'read';
  }

  /** One batched read for one profile: counters saved, rows the platform no longer has marked read, sums updated. */
  private async read(
    platform: PlatformKey,
    reader: StatsReader,
    account: AccountRow,
    batch: StatsRow[],
    now: Date,
  ): Promise<number> {
    const stats = await this.deps.connections.callPlatform(account, platform, (_d, token, { http }) =>
      reader(
        http,
        token,
        batch.map((r) => r.remoteId!),
      ),
    );
    if (platform === 'youtube') await this.deps.quota.spend('youtube', account.id, Math.ceil(batch.length / 50), now);
    const at = now.toISOString();
    const found = new Map(stats.map((s) => [s.id, s]));
    for (const r of batch) {
      const s = found.get(r.remoteId!);
      if (s) await this.deps.repo.saveStats(r.id, { views: s.views, likes: s.likes, comments: s.comments }, at);
    }
    await this.deps.repo.touchStats(
      batch.filter((r) => !found.has(r.remoteId!)).map((r) => r.id),
      at,
    );
    await this.deps.repo.sumStats(batch.map((r) => r.videoId));
    return found.size;
  }
}
