import { hashPassword } from '../server/auth/password';
import { dayBefore, statDay } from '../server/analytics/stat-day';
import type { DbKind } from '../server/db/index';
import { SPEC_PLATFORMS } from '../src/contract/platforms';
import { makeTestDb, postgresAvailable, type TestDb } from '../tests/helpers/db';
import { benchApp, BENCH_PASSWORD } from './bench-app';
import { summary } from './http-load';

// ANALYTICS_BENCH_POSTS / ANALYTICS_BENCH_RUNS make a quick small run possible (the target is 10,000 posts).
const POSTS = Number(process.env.ANALYTICS_BENCH_POSTS ?? 10_000);
const DAYS = 90;
const PROFILES = 200;
const RUNS = Number(process.env.ANALYTICS_BENCH_RUNS ?? 100);
const CHUNK = 1000;

/**
 * Issue 22's target: the dashboard's queries p99 ≤ 100 ms with 10,000 posts and 90 days of history, on SQLite and
 * PostgreSQL. Posts of two users over 200 profiles and the three platforms, each with a day row for each of the
 * last 90 days (post_stat_days) and the profiles' days (profile_stat_days); GET /api/analytics/dashboard for 7, 30
 * and 90 days as an admin (everyone's) and as a user (their half), through app.inject (queries, zod answer, JSON).
 * Also the platform calls one stats round makes for these posts, next to one call per post. Printed, not asserted.
 */
export async function analyticsBench(): Promise<void> {
  printRound();
  await benchOn('sqlite');
  if (await postgresAvailable()) await benchOn('postgres');
  else console.log('analytics  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

/** A stats round's calls: YouTube 50 ids per call, TikTok 20, Instagram two per media (node and insights). */
function printRound() {
  const perPlatform = Math.ceil(POSTS / SPEC_PLATFORMS.length);
  const perProfile = Math.ceil(perPlatform / PROFILES);
  const calls = {
    youtube: PROFILES * Math.ceil(perProfile / 50),
    tiktok: PROFILES * Math.ceil(perProfile / 20),
    instagram: perPlatform * 2,
  };
  for (const p of SPEC_PLATFORMS)
    console.log(
      `analytics  stats round ${perPlatform} ${p} posts on ${PROFILES} profiles: ${calls[p]} calls (one per post: ${perPlatform})`,
    );
}

async function seed(tdb: TestDb) {
  const db = tdb.db;
  const at = new Date().toISOString();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const users: number[] = [];
  for (const [login, role] of [
    ['anbenchadmin', 'admin'],
    ['anbenchuser', 'user'],
    ['anbenchother', 'user'],
  ] as const)
    users.push(
      (
        await db
          .insertInto('users')
          .values({ login, passwordHash, role, createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const owners = [users[1]!, users[2]!];
  const profiles = await db
    .insertInto('accounts')
    // Profiles in two zones (Kyiv's and none, UTC), as a Ukrainian studio's are: the dashboard ends on the later today.
    .values(
      Array.from({ length: PROFILES }, (_, i) => ({
        userId: owners[i % 2]!,
        createdAt: at,
        comments: `P${i}`,
        timeZone: i % 4 < 2 ? 'Europe/Kyiv' : null,
      })),
    )
    .returning(['id', 'userId'])
    .execute();
  const today = statDay(Date.now());
  const days = Array.from({ length: DAYS }, (_, i) => dayBefore(today, i));
  const perPublication = 50;
  const posts: { id: number; accountId: number; platform: string }[] = [];
  for (let p = 0; posts.length < POSTS; p++) {
    const owner = owners[p % 2]!;
    const own = profiles.filter((a) => a.userId === owner);
    const req = await db
      .insertInto('createVideoRequests')
      .values({
        userId: owner,
        idUpload: `anbench${p}`,
        status: 'success',
        count: perPublication,
        isVideo: 0,
        isPhoto: 0,
        isGenerator: 1,
        folders: '[]',
        clipKey: 'clips/none.mp4',
        clipName: 'clip.mp4',
        error: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pub = await db
      .insertInto('publications')
      .values({ userId: owner, requestId: req.id, title: `Публікація ${p}`, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const videos = await db
      .insertInto('videos')
      .values(
        Array.from({ length: perPublication }, (_, i) => ({
          userId: owner,
          accountId: own[(p + i) % own.length]!.id,
          createdAt: at,
          status: 'publication',
          title: `Шортс ${p}-${i}`,
          requestId: req.id,
          outputIndex: i,
          publicationId: pub.id,
        })),
      )
      .returning(['id', 'accountId'])
      .execute();
    const platform = SPEC_PLATFORMS[p % SPEC_PLATFORMS.length]!;
    const made = await db
      .insertInto('videoPublishes')
      .values(
        videos.map((v) => ({
          videoId: v.id,
          platform,
          accountId: v.accountId,
          state: 'published',
          dueAt: at,
          publishedAt: at,
          videoVersion: 1,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .returning(['id', 'accountId', 'platform'])
      .execute();
    posts.push(...made.map((m) => ({ id: m.id, accountId: m.accountId!, platform: m.platform })));
  }
  const rows = posts.flatMap((post, n) =>
    days.map((day, d) => ({
      publishId: post.id,
      day,
      views: (n * 31 + d * 7) % 500,
      likes: (n + d) % 40,
      comments: (n + d) % 5,
      viewsTotal: 0,
    })),
  );
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto('postStatDays')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  const byProfile = new Map<
    string,
    { accountId: number; platform: string; day: string; views: number; likes: number; comments: number }
  >();
  for (const r of rows) {
    const post = posts[Math.floor(rows.indexOf(r) / DAYS)]!;
    const key = `${post.accountId}|${post.platform}|${r.day}`;
    const cur = byProfile.get(key) ?? {
      accountId: post.accountId,
      platform: post.platform,
      day: r.day,
      views: 0,
      likes: 0,
      comments: 0,
    };
    cur.views += r.views;
    cur.likes += r.likes;
    cur.comments += r.comments;
    byProfile.set(key, cur);
  }
  const profileRows = [...byProfile.values()];
  for (let i = 0; i < profileRows.length; i += CHUNK)
    await db
      .insertInto('profileStatDays')
      .values(profileRows.slice(i, i + CHUNK))
      .execute();
  return { postDays: rows.length, profileDays: profileRows.length };
}

async function benchOn(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  const { app, analyze, bearer: token } = await benchApp(tdb, kind);
  const name = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const sizes = await seed(tdb);
    await analyze();
    console.log(
      `analytics  ${POSTS} posts × ${DAYS} days (${sizes.postDays} post days, ${sizes.profileDays} profile days), ${name}`,
    );
    for (const [role, login] of [
      ['admin', 'anbenchadmin'],
      ['user', 'anbenchuser'],
    ] as const) {
      const auth = await token(login);
      for (const days of ['7', '30', '90']) {
        const times: number[] = [];
        for (let i = 0; i < RUNS + 5; i++) {
          const t = performance.now();
          const res = await app.inject({
            method: 'GET',
            url: `/api/analytics/dashboard?days=${days}`,
            headers: { authorization: auth },
          });
          if (i >= 5) times.push(performance.now() - t);
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        }
        const s = summary(times, 1);
        console.log(
          `analytics  ${role.padEnd(5)} ${days.padStart(2)} days  GET /api/analytics/dashboard p50 ${s.p50.toFixed(2)} ms p99 ${s.p99.toFixed(2)} ms (target ≤ 100: ${s.p99 <= 100 ? 'ok' : 'MISSED'})`,
        );
      }
    }
  } finally {
    await app.close();
    await tdb.drop();
  }
}
