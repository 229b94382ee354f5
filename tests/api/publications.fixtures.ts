import type { TestCtx } from '../helpers/app';
import { PLATFORMS, type PlatformKey } from '../../src/contract/platforms';
import { connectPlatform } from '../helpers/connected-tokens';
import { seedFinishedRequest } from '../helpers/finished-request';

type Token = { authorization: string };

/**
 * Publication test fixtures straight in the database: a finished create-video request with rendered outputs
 * (no render needed), and profiles with platforms connected the way the OAuth callback leaves them.
 */
export function publicationFixtures(ctx: TestCtx) {
  const db = () => ctx.tdb.db;
  return {
    /** A create-video request of `userId` in `status` with `count` rendered videos; returns its ids. */
    request(userId: number, count = 3, status: 'success' | 'loading' = 'success') {
      return seedFinishedRequest(db(), userId, count, status);
    },

    /** A profile of the signed-in user with the given platforms connected (active, tokens stored). */
    async account(token: Token, comments: string, connected: Partial<Record<PlatformKey, boolean>>) {
      const r = await ctx.call({
        method: 'POST',
        url: '/api/accounts',
        token,
        payload: { proxy: 'http://127.0.0.1:3128', comments },
      });
      if (r.status >= 300) throw new Error(`account: ${r.status} ${JSON.stringify(r.body)}`);
      for (const platform of PLATFORMS) {
        if (connected[platform]) await connectPlatform(db(), ctx.root.sealer, r.body.id, platform);
      }
      return r.body.id as number;
    },

    /** The user `anna`, signed in, with 'Main' (YouTube + TikTok connected) and 'Full' (all three). */
    async annaWithProfiles() {
      const annaId = await ctx.createUser('anna', 'anna-pass');
      const anna = (await ctx.login('anna', 'anna-pass')).headers;
      const main = await this.account(anna, 'Main', { youtube: true, tiktok: true });
      const full = await this.account(anna, 'Full', { youtube: true, tiktok: true, instagram: true });
      return { anna, annaId, main, full };
    },

    publishes(videoIds: number[]) {
      return db()
        .selectFrom('videoPublishes')
        .selectAll()
        .where('videoId', 'in', videoIds)
        .orderBy('videoId')
        .orderBy('platform')
        .execute();
    },

    video(id: number) {
      return db().selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },

    /** The publish jobs of a publish row (any status), found by their payload. */
    async jobs(publishId: number) {
      const rows = (
        await db().selectFrom('jobs').selectAll().where('name', '=', 'publication.publish').orderBy('id').execute()
      ).filter((r) => (JSON.parse(r.payload) as { publishId: number }).publishId === publishId);
      // run_at is epoch ms in the database (012); the tests compare it with the API's ISO dates.
      return rows.map((r) => ({ ...r, runAt: new Date(r.runAt).toISOString() }));
    },

    async count(table: 'publications' | 'videoPublishes' | 'jobs') {
      const r = await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .executeTakeFirstOrThrow();
      return Number(r.c);
    },
  };
}
