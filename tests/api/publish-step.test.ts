import { CompiledQuery } from 'kysely';
import { enqueuePublishStep, publishJob, publishJobKey } from '../../server/publishing/publishing.jobs';
import { describeEachDb, type TestCtx } from '../helpers/app';
import { insertRequest } from '../helpers/db';
import { publishRunner } from './publish.fixtures';

/**
 * The publishing chain keeps its step on the post's own row (video_publishes.step, issue 20 item 4): a step
 * below the row's does nothing, "retry now" moves the job of the row's step (found by its exact key), and the
 * next-step lookup is an index read on both databases, never a scan of the jobs table.
 */
const past = () => new Date(Date.now() - 60_000);
const later = () => new Date(Date.now() + 3600_000);

async function post(ctx: TestCtx, userId: number, tag: string) {
  const db = ctx.tdb.db;
  const at = new Date().toISOString();
  const requestId = await insertRequest(db, userId, `step-${tag}`);
  const pub = await db
    .insertInto('publications')
    .values({ userId, requestId, title: 'T', createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('publicationPlatforms').values({ publicationId: pub.id, platform: 'youtube' }).execute();
  const video = await db
    .insertInto('videos')
    .values({
      userId,
      requestId,
      outputIndex: 0,
      publicationId: pub.id,
      storageKey: 'videos/none.mp4',
      status: 'publication',
      createdAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('videoPublishes')
    .values({
      videoId: video.id,
      platform: 'youtube',
      dueAt: past().toISOString(),
      videoVersion: 0,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { publicationId: pub.id, videoId: video.id, publishId: row.id };
}

describeEachDb('the publishing chain step on the post row', (ctx) => {
  let userId: number;
  let token: { authorization: string };
  beforeAll(async () => {
    userId = await ctx.createUser('stepper', 'stepper-pass');
    token = (await ctx.login('stepper', 'stepper-pass')).headers;
  });
  const db = () => ctx.tdb.db;
  const rowOf = (id: number) =>
    db().selectFrom('videoPublishes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const jobOf = (key: string) => db().selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirst();
  const queue = (id: number, step: number, at: Date) =>
    db()
      .transaction()
      .execute((trx) =>
        enqueuePublishStep({ enqueue: ctx.root.queue.enqueue, posts: ctx.root.repos.posts }, trx, id, step, at),
      );

  it('records each queued step on the row; a step below the row is stale and does nothing', async () => {
    const { publishId } = await post(ctx, userId, 'stale');
    expect(await queue(publishId, 0, past())).toBe(true);
    expect((await rowOf(publishId)).step).toBe(0);
    // A newer chain: step 1, due later. Step 0, due now, is stale.
    expect(await queue(publishId, 1, later())).toBe(true);
    expect((await rowOf(publishId)).step).toBe(1);
    // A chain already past a step queues nothing for it.
    expect(await queue(publishId, 0, past())).toBe(false);

    const before = await rowOf(publishId);
    await publishRunner(ctx).drain();
    expect(await jobOf(publishJobKey(publishId, 0))).toMatchObject({ status: 'done' });
    expect(await rowOf(publishId)).toEqual(before);
    expect(await jobOf(publishJobKey(publishId, 1))).toMatchObject({ status: 'queued' });
    expect(await jobOf(publishJobKey(publishId, 2))).toBeUndefined();

    // The row's own step does run (here it fails: the profile is gone).
    await ctx.root.queue.runNow(publishJobKey(publishId, 1));
    await publishRunner(ctx).drain();
    expect((await rowOf(publishId)).state).toBe('failed');
  });

  it('retry now moves the queued job of the row step, and queues the next step when it is gone', async () => {
    const { publishId, videoId } = await post(ctx, userId, 'retry');
    await queue(publishId, 0, past());
    await db().updateTable('jobs').set({ status: 'done' }).where('key', '=', publishJobKey(publishId, 0)).execute();
    await queue(publishId, 1, later());
    await db()
      .updateTable('videoPublishes')
      .set({ attempt: 1, retryAtMs: later().getTime() })
      .where('id', '=', publishId)
      .execute();
    const retry = () => ctx.call({ method: 'POST', url: `/api/upload-video/video/${videoId}/youtube/retry`, token });

    const moved = await retry();
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await rowOf(publishId)).step).toBe(1);
    expect(Number((await jobOf(publishJobKey(publishId, 1)))!.runAt)).toBeLessThanOrEqual(Date.now());
    expect(await jobOf(publishJobKey(publishId, 2))).toBeUndefined();

    // The row's step held by a worker: left to it.
    await db().updateTable('jobs').set({ status: 'running' }).where('key', '=', publishJobKey(publishId, 1)).execute();
    expect((await retry()).status).toBe(400);
    expect((await rowOf(publishId)).step).toBe(1);

    // The row's step job lost (finished without a successor): the next step, now, recorded on the row.
    await db().updateTable('jobs').set({ status: 'done' }).where('key', '=', publishJobKey(publishId, 1)).execute();
    expect((await retry()).status).toBe(200);
    expect((await rowOf(publishId)).step).toBe(2);
    const next = await jobOf(publishJobKey(publishId, 2));
    expect(next).toMatchObject({ status: 'queued', name: publishJob.name });
    expect(Number(next!.runAt)).toBeLessThanOrEqual(Date.now());
  });

  it('looks the next step up by index on the row and on the job key, with many rows and jobs in the tables', async () => {
    const at = new Date().toISOString();
    const { publishId } = await post(ctx, userId, 'plan');
    await queue(publishId, 0, past());
    // Enough rows that a scan would cost more than an index read on either planner.
    for (let b = 0; b < 10; b++) {
      await db()
        .insertInto('jobs')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            name: publishJob.name,
            key: `${publishJob.name}:${1_000_000 + b * 500 + i}:0`,
            payload: '{}',
            status: 'done',
            runAt: 0,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .execute();
    }
    for (let b = 0; b < 4; b++) {
      const videos = await db()
        .insertInto('videos')
        .values(Array.from({ length: 500 }, () => ({ userId, status: 'publication', createdAt: at })))
        .returning('id')
        .execute();
      await db()
        .insertInto('videoPublishes')
        .values(
          videos.map((v) => ({
            videoId: v.id,
            platform: 'tiktok' as const,
            dueAt: at,
            videoVersion: 0,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .execute();
    }
    const kind = ctx.tdb.kind;
    if (kind === 'postgres') await db().executeQuery(CompiledQuery.raw('ANALYZE'));
    const plan = async (q: { compile(): CompiledQuery }) => {
      const c = q.compile();
      const prefix = kind === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
      const r = await db().executeQuery(CompiledQuery.raw(prefix + c.sql, [...c.parameters]));
      return r.rows.map((row) => Object.values(row as Record<string, unknown>).join(' ')).join('\n');
    };
    const stepRead = await plan(db().selectFrom('videoPublishes').select('step').where('id', '=', publishId));
    const jobRead = await plan(db().selectFrom('jobs').select('status').where('key', '=', publishJobKey(publishId, 0)));
    if (kind === 'sqlite') {
      expect(stepRead).toMatch(/SEARCH video_publishes USING INTEGER PRIMARY KEY/);
      expect(jobRead).toMatch(/SEARCH jobs USING (COVERING )?INDEX \w+ \(key=\?\)/);
    } else {
      expect(stepRead).toMatch(/Index (Only )?Scan using video_publishes_pkey/);
      expect(jobRead).toMatch(/Index (Only )?Scan using jobs_key\w*/);
    }
    expect(`${stepRead}\n${jobRead}`).not.toMatch(/SCAN (TABLE )?(jobs|video_publishes)\b|Seq Scan/);
  });
});
