import { grantLapsesAt } from '../platforms/fresh-token';
import { adaptersOf, type PlatformRegistry } from '../platforms/registry';
import type { AccountMapper } from './account-record';
import type { AccountsRepository } from './accounts.repository';
import type { PlatformConnections } from './platform-connections';

/**
 * Keeps idle grants alive (the 'accounts.keep-alive' job, server/accounts/accounts.jobs.ts): refreshes each
 * connected platform whose grant would lapse within `marginMs` (Instagram's 60-day token, TikTok's refresh
 * token, a Google grant idle for about five months), through the profile's proxy. A refused refresh marks
 * the platform for reconnection with a readable error, as any call does. Walks the profiles by id in batches, and
 * each profile's platforms in the registry's order.
 */
export class KeepAliveService {
  constructor(
    private repo: AccountsRepository,
    private mapper: AccountMapper,
    private connections: PlatformConnections,
    private platforms: PlatformRegistry,
  ) {}

  async keepGrantsAlive(
    opts: { now?: Date; marginMs?: number; batch?: number } = {},
  ): Promise<{ refreshed: number; failed: number }> {
    const now = (opts.now ?? new Date()).getTime();
    const margin = opts.marginMs ?? 7 * 24 * 3600_000;
    const counts = { refreshed: 0, failed: 0 };
    for (let after = 0; ;) {
      const rows = await this.repo.withGrants(after, opts.batch ?? 200);
      if (!rows.length) return counts;
      after = rows[rows.length - 1]!.id;
      for (const row of rows) {
        const states = await this.repo.platformRows(row.id);
        for (const { id: platform } of adaptersOf(this.platforms)) {
          const sealed = states.get(platform)?.tokens;
          if (!sealed || !states.get(platform)?.active) continue;
          try {
            if (grantLapsesAt(this.mapper.tokens(sealed)) - now > margin) continue;
            await this.connections.withPlatform(row, platform, async () => undefined, {
              refreshAheadMs: Number.POSITIVE_INFINITY,
            });
            counts.refreshed++;
          } catch {
            counts.failed++; // a platform's refusal is stored on the profile by withPlatform; the walk goes on
          }
        }
      }
    }
  }
}
