import type { Db } from '../db/index';
import { paginate } from '../http/paginate';
import type { Page } from '../../src/contract/pagination';
import type { ApprovalItem } from '../../src/contract/approvals';
import type { PlatformKey } from '../../src/contract/platforms';
import { profileHandles, profileText } from '../../src/contract/profile-identity';

const parseTags = (s: string | null): string[] => {
  try {
    const v: unknown = JSON.parse(s ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/**
 * The reads of approval before posting: the posts awaiting approval (index video_publishes (state, due_at) of 008
 * serves the state), each with its video's current content, owner and profile, soonest due first.
 */
export class ApprovalsRepository {
  constructor(private db: Db) {}

  list(page: number): Promise<Page<ApprovalItem>> {
    const base = this.db
      .selectFrom('videoPublishes as vp')
      .innerJoin('videos as v', 'v.id', 'vp.videoId')
      .innerJoin('users as u', 'u.id', 'v.userId')
      .leftJoin('publications as p', 'p.id', 'v.publicationId')
      .leftJoin('createVideoRequests as r', 'r.id', 'p.requestId')
      .leftJoin('accounts as a', 'a.id', 'vp.accountId')
      .where('vp.state', '=', 'awaiting_approval');
    return paginate(
      base,
      page,
      (q) =>
        q
          .select([
            'vp.id',
            'vp.videoId',
            'vp.platform',
            'vp.dueAt',
            'vp.updatedAt',
            'vp.accountId',
            'v.publicationId',
            'v.version',
            'v.title',
            'v.description',
            'v.tags',
            'v.userId',
            'u.login',
            'p.title as pTitle',
            'p.description as pDescription',
            'p.tags as pTags',
            'r.idUpload',
            'a.comments',
            'a.titleChannel',
            'a.titleTikTok',
            'a.profileNameInstagram',
          ])
          .orderBy('vp.dueAt')
          .orderBy('vp.id'),
      (r) => {
        const tags = parseTags(r.tags);
        return {
          id: r.id,
          videoId: r.videoId,
          publicationId: r.publicationId,
          idUpload: r.idUpload,
          platform: r.platform as PlatformKey,
          owner: { id: r.userId, login: r.login },
          account: r.accountId
            ? {
                id: r.accountId,
                name: profileText({ id: r.accountId, comments: r.comments, handles: profileHandles(r) }),
              }
            : null,
          title: (r.title ?? r.pTitle ?? '').trim(),
          description: r.description ?? r.pDescription ?? '',
          tags: tags.length ? tags : parseTags(r.pTags),
          dueAt: r.dueAt,
          version: Number(r.version),
          since: r.updatedAt,
        };
      },
    );
  }

  /** How many posts await approval (the menu's count). */
  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('videoPublishes')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .where('state', '=', 'awaiting_approval')
      .executeTakeFirst();
    return Number(r?.c ?? 0);
  }
}
