import { sql } from 'kysely';
import type { DbKind } from '../server/db/index';
import { PublishingRepository } from '../server/publishing/publishing.repository';
import { publishJob } from '../server/publishing/publishing.jobs';
import { VideosRepository } from '../server/videos/videos.repository';
import { seedFinishedRequest } from '../tests/helpers/finished-request';
import { insertUser, makeTestDb, postgresAvailable, type TestDb } from '../tests/helpers/db';

const POSTS = 2_000;
const JOBS = 1_000_000;
const LOOKUPS = 5_000;

/**
 * Issue 20's target: a publication's next-step lookup p99 ≤ 2 ms with 1,000,000 jobs in the table, on both
 * databases. The lookup is what retry-now, re-publish and cancel run (PublicationSchedule.liveJob): one statement,
 * the chain's step read from the post's own row (video_publishes.step) joined to that step's job by its exact key. The table
 * holds 1,000,000 finished publish jobs of 2,000 posts (500 steps each), as a year of polling would leave
 * without pruning. Printed, never asserted.
 */
export async function nextStepBench(): Promise<void> {
  await benchOn('sqlite');
  if (await postgresAvailable()) await benchOn('postgres');
  else console.log('next-step  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

async function seed(tdb: TestDb): Promise<number[]> {
  const at = new Date().toISOString();
  const userId = await insertUser(tdb.db, 'bench', 'bench-pass');
  const { videos } = await seedFinishedRequest(tdb.db, userId, POSTS / 2);
  const posts: number[] = [];
  for (const videoId of videos)
    for (const platform of ['youtube', 'tiktok'] as const) {
      const { id } = await tdb.db
        .insertInto('videoPublishes')
        .values({ videoId, platform, state: 'published', dueAt: at, videoVersion: 1, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      posts.push(id);
    }
  const steps = JOBS / POSTS;
  await sql`UPDATE video_publishes SET step = ${steps - 1}`.execute(tdb.db);
  // Every post's chain of finished steps, keyed as the worker keys them.
  const series =
    tdb.kind === 'postgres'
      ? sql`generate_series(0, ${JOBS - 1}) AS s(i)`
      : sql`(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${JOBS - 1}) SELECT i FROM s) AS s`;
  const first = posts[0]!;
  await sql`
    INSERT INTO jobs (name, key, payload, status, attempts, max_attempts, run_at, stalls, created_at, updated_at)
    SELECT ${publishJob.name},
           ${publishJob.name} || ':' || CAST(CAST(${first} AS integer) + i / CAST(${steps} AS integer) AS text) || ':' ||
             CAST(i % CAST(${steps} AS integer) AS text),
           '{}', 'done', 1, 1, 0, 0, ${at}, ${at}
    FROM ${series}`.execute(tdb.db);
  return posts;
}

async function benchOn(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  try {
    const t0 = performance.now();
    const posts = await seed(tdb);
    const seeded = ((performance.now() - t0) / 1000).toFixed(1);
    // As autovacuum leaves a table that a year of polling filled: statistics taken, hint bits and visibility map set.
    if (kind === 'postgres') {
      await sql`VACUUM ANALYZE`.execute(tdb.db);
      await sql`CHECKPOINT`.execute(tdb.db); // the seeding's writes flushed before the clock starts
    }
    const repo = new PublishingRepository(tdb.db, new VideosRepository(tdb.db));
    const times: number[] = [];
    for (let i = 0; i < LOOKUPS; i++) {
      const id = posts[(i * 7919) % posts.length]!;
      const started = performance.now();
      const { step, status } = await repo.stepJob(id);
      times.push(performance.now() - started);
      if (status !== 'done') throw new Error(`post ${id}: step ${step}'s job is ${status ?? 'missing'}`);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
    console.log(
      `next-step  ${kind.padEnd(8)} ${JOBS.toLocaleString('en')} jobs (seeded in ${seeded} s), ${LOOKUPS} lookups: ` +
        `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${times.at(-1)!.toFixed(3)} ms (target p99 ≤ 2 ms)`,
    );
  } finally {
    await tdb.drop();
  }
}
