/**
 * TikTok's creator_info for the publish form (issue 21 item 6): what the creator may choose for a post right now
 * (privacy levels, and whether comments, duets and stitches can be on). TikTok asks apps to read it before every
 * post and offer only what it allows; the publish form reads it per profile, the server checks a chosen privacy
 * level against it on saving (and the TikTok step again before init).
 */
import type { AccountsRepository } from '../accounts/accounts.repository';
import type { PlatformConnections } from '../accounts/platform-connections';
import type { TikTokCreatorInfo } from '../../src/contract/platform-posts';
import { notFound } from '../http/errors';
import { TikTokPublisher } from '../platforms/tiktok/tiktok.publisher';

export class TikTokCreators {
  constructor(private deps: { accounts: AccountsRepository; connections: PlatformConnections }) {}

  /** The profile's creator_info through its proxy with a fresh token; a profile of `scope` only (null: any). */
  async info(accountId: number, scope: number | null): Promise<TikTokCreatorInfo> {
    const row = await this.deps.accounts.get(accountId);
    if (!row || (scope !== null && row.userId !== scope)) throw notFound();
    const c = await this.deps.connections.withPlatform(row, 'tiktok', (_d, token, call) =>
      new TikTokPublisher({ http: call.http, baseUrls: call.settings.baseUrls }).creatorInfo(token),
    );
    return {
      account: accountId,
      nickname: c.nickname,
      username: c.username,
      privacyLevelOptions: c.privacyLevelOptions,
      commentDisabled: c.commentDisabled,
      duetDisabled: c.duetDisabled,
      stitchDisabled: c.stitchDisabled,
      maxVideoPostDurationSec: c.maxVideoPostDurationSec,
    };
  }
}
