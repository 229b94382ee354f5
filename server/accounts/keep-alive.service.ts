import type { EventBus } from '../events/event-bus';
import { grantLapsesAt } from '../platforms/fresh-token';
import { isPlatformError, type PlatformId } from '../platforms/types';
import { adaptersOf, type PlatformRegistry } from '../platforms/registry';
import type { AccountMapper } from './account-record';
import type { AccountsRepository } from './accounts.repository';
import type { PlatformConnections } from './platform-connections';

/**
 * Keeps idle grants alive (the 'accounts.keep-alive' job, server/accounts/accounts.jobs.ts): refreshes each
 * connected platform whose grant would lapse within `marginMs` (Instagram's 60-day token, TikTok's refresh
 * token, a Google grant idle for about five months), through the profile's proxy. A refused refresh marks
 * the platform for reconnection with a readable error, as any call does. One that fails for another reason (the
 * proxy is down, the platform answers later) stays connected and lapses on its own: its owner hears
 * `grant.expiring` (the bell, webhooks) at most once a day until it is renewed or lost. Walks the profiles by id in
 * batches, and each profile's platforms in the registry's order.
 */
const WARN_EVERY_MS = 23 * 3600_000; // the job runs every 6 h: one warning a day
export class KeepAliveService {
  constructor(
    private repo: AccountsRepository,
    private mapper: AccountMapper,
    private connections: PlatformConnections,
    private platforms: PlatformRegistry,
    private events: EventBus,
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
          const lapsesAt = grantLapsesAt(this.mapper.tokens(sealed));
          if (lapsesAt - now > margin) continue;
          try {
            await this.connections.callPlatform(row, platform, async () => undefined, {
              fresh: { refreshAheadMs: Number.POSITIVE_INFINITY, mustRefresh: true },
              recordTransient: true,
            });
            counts.refreshed++;
          } catch (e) {
            counts.failed++; // a platform's refusal is stored on the profile by callPlatform; the walk goes on
            if (!(isPlatformError(e) && e.kind === 'reconnect'))
              await this.warn(row.userId, row.id, platform, lapsesAt, isPlatformError(e) ? e.message : String(e));
          }
        }
      }
    }
  }

  /** `grant.expiring` for the grant, unless its owner heard it within the day or it is no longer connected. */
  private async warn(userId: number, accountId: number, platform: PlatformId, lapsesAt: number, error: string) {
    if (!(await this.repo.platformRows(accountId)).get(platform)?.active) return;
    const heard = await this.events.recent('grant.expiring', userId, WARN_EVERY_MS);
    if (heard.some((e) => e.payload.accountId === accountId && e.payload.platform === platform)) return;
    const payload = { accountId, platform, lapsesAt: new Date(lapsesAt).toISOString(), error };
    await this.events.transaction((trx) => this.events.record(trx, { name: 'grant.expiring', userId, payload }));
  }
}
