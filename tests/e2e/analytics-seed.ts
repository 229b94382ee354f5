import { StatsHistoryRepository } from '../../server/analytics/stats-history.repository';
import type { PlatformKey } from '../../src/contract/platforms';
import { seedFinishedRequest } from '../helpers/finished-request';
import type { TestServer } from '../helpers/server';
import { signedInApi } from '../helpers/server-api';
import { adminId } from './publish-seed';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Three profiles of a small studio, with the long names real profiles carry. */
const PROFILES = [
  'Кулінарний канал Олени: рецепти на кожен день',
  'Олена — запасний профіль (мобільний проксі, Київ)',
  'Подорожі та гори',
];

/** The posts: a video's title, its profile (index), platform, days since it went public and how it grows a day. */
const POSTS: { title: string; profile: number; platform: PlatformKey; age: number; perDay: number }[] = [
  { title: 'Сирники за 10 хвилин', profile: 0, platform: 'youtube', age: 27, perDay: 4200 },
  { title: 'Сирники за 10 хвилин', profile: 0, platform: 'tiktok', age: 27, perDay: 9100 },
  {
    title: 'Борщ, який зʼїдять усі: повна версія рецепта без скорочень',
    profile: 0,
    platform: 'instagram',
    age: 20,
    perDay: 2600,
  },
  { title: 'Світанок на Говерлі', profile: 2, platform: 'youtube', age: 14, perDay: 1800 },
  { title: 'Світанок на Говерлі', profile: 2, platform: 'tiktok', age: 14, perDay: 5400 },
  { title: 'Кава в Карпатах', profile: 1, platform: 'instagram', age: 9, perDay: 1200 },
  { title: 'Кава в Карпатах', profile: 1, platform: 'youtube', age: 6, perDay: 760 },
];

/**
 * Realistic analytics for the dashboard's browser test and screenshots: three profiles of the admin, seven posts
 * of four videos on the three platforms that went public over the last four weeks, each read twice a day since
 * (views growing on a curve, a like per ~40 views). Posts are written straight into the database (no worker
 * runs); the reads go through the stats history, as the stats pass records them. Returns the profiles' ids.
 */
export async function seedAnalytics(srv: TestServer): Promise<{ profiles: number[] }> {
  const db = srv.tdb.db;
  const api = await signedInApi(srv);
  const profiles: number[] = [];
  for (const comments of PROFILES)
    profiles.push((await api('POST', '/api/accounts', { proxy: 'http://127.0.0.1:3128', comments })).id as number);
  const titles = [...new Set(POSTS.map((p) => p.title))];
  const { videos } = await seedFinishedRequest(db, await adminId(srv), titles.length);
  for (const [i, title] of titles.entries())
    await db.updateTable('videos').set({ title, status: 'published' }).where('id', '=', videos[i]!).execute();
  const history = new StatsHistoryRepository(db);
  const now = Date.now();
  const at = new Date(now).toISOString();
  for (const [n, p] of POSTS.entries()) {
    const publishedMs = now - p.age * DAY;
    const { id: publishId } = await db
      .insertInto('videoPublishes')
      .values({
        videoId: videos[titles.indexOf(p.title)]!,
        platform: p.platform,
        accountId: profiles[p.profile]!,
        state: 'published',
        dueAt: new Date(publishedMs).toISOString(),
        publishedAt: new Date(publishedMs).toISOString(),
        videoVersion: 1,
        handleSealed: null,
        remoteId: `seed-${n}`,
        remoteUrl: null,
        error: null,
        errorKind: null,
        waitUntil: null,
        processingSince: null,
        statsAt: null,
        retryAtMs: null,
        statsAskedMs: null,
        approvedVersion: null,
        approvedBy: null,
        approvedAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const post = { publishId, accountId: profiles[p.profile]!, platform: p.platform };
    let views = 0;
    for (let t = publishedMs + HOUR; t < now; t += 12 * HOUR) {
      const ageDays = (t - publishedMs) / DAY;
      // Fast at first, then a long tail; a weekly wobble so the curves are not straight.
      views = Math.max(views, Math.round(p.perDay * ageDays ** 0.8 * (1 + 0.15 * Math.sin(ageDays + n))));
      const likes = Math.round(views / 40);
      await history.record(post, t, { views, likes, comments: Math.round(likes / 8), shares: 0, saves: 0 });
    }
    await db.updateTable('videoPublishes').set({ views }).where('id', '=', publishId).execute();
  }
  return { profiles };
}
