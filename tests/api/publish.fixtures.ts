import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { TestCtx } from '../helpers/app';
import type { Config } from '../../server/config';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { FFMPEG } from '../helpers/media-fixtures';
import { freePort } from '../helpers/free-port';
import { openConsent } from '../platforms/helpers';
import { enqueuePublishStep, publishJob } from '../../server/publishing/publishing.jobs';
import type { PlatformKey } from '../../src/contract/platforms';
import type { PlatformId } from '../../server/platforms/types';
import type { PostQuota } from '../../server/platforms/adapter';
import { PLATFORM_REGISTRY, adaptersOf, type PlatformRegistry } from '../../server/platforms/registry';
import { insertRequest } from '../helpers/db';

const run = promisify(execFile);

/**
 * A real 720x1280 H.264/AAC MP4 (every platform's gate accepts it), 4 s by default, made once by ffmpeg; `lossless`
 * makes it about 2 MB a second (big enough for several upload chunks).
 */
export async function makePublishClip(
  opts: { durationSec?: number; lossless?: boolean } = {},
): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const d = opts.durationSec ?? 4;
  const dir = await mkdtemp(join(tmpdir(), 'kadr-publish-'));
  const file = join(dir, 'short.mp4');
  await run(FFMPEG, [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=720x1280:r=30:d=${d}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${d}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    ...(opts.lossless ? ['-qp', '0'] : []),
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    file,
  ]);
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The registry with some platforms' limits changed (the root takes it as its `platforms` override). */
export const withLimits = (limits: Partial<Record<PlatformId, Partial<PostQuota>>>): PlatformRegistry =>
  Object.fromEntries(
    adaptersOf(PLATFORM_REGISTRY).map((a) => [a.id, { ...a, limits: { ...a.limits, ...limits[a.id] } }]),
  ) as PlatformRegistry;

/** The app listens on the port its PUBLIC_URL names (publishSimulators picked it): Instagram fetches the media link from it. */
export async function listenForMedia(app: FastifyInstance): Promise<void> {
  await app.listen({ port: app.config.port, host: '127.0.0.1' });
}

/** Simulators for one run of the publish tests, and the config that points the app at them (and at a free port). */
export async function publishSimulators(): Promise<{ sims: Simulators; config: Partial<Config> }> {
  const sims = await startSimulators();
  sims.google.processingMs = 0;
  sims.instagram.publishing.finishAfterPolls = 1;
  const port = await freePort();
  // The simulators' proxies listen on 127.0.0.1: allowed here as ALLOW_PRIVATE_PROXIES=true does.
  return {
    sims,
    config: {
      platformTimeoutMs: 3_000,
      platforms: sims.config,
      allowPrivateProxies: true,
      port,
      publicUrl: `http://127.0.0.1:${port}`,
    },
  };
}

/** The publish worker's timing in these tests: polls and backoff in tens of ms (a file overrides what it needs). */
export const PUBLISH_TIMING = {
  pollMs: 10,
  containerPollMs: 20,
  backoffMs: 10,
  processingBudgetMs: 20_000,
  progressEveryMs: 0,
  youtubeChunkSize: 256 * 1024,
  tiktokChunkSize: 5 * 1024 * 1024,
  maxFaults: 6,
};

type Clip = Awaited<ReturnType<typeof makePublishClip>>;

/**
 * What a publish test file shares, set up before its tests and closed after them: the local proxy every profile
 * goes through, the real clip, and the simulators of each describeEachDb run (`overrides` starts them for the run
 * it names and points the app at them; `sims` finds them by that name).
 */
export type PublishBench = {
  proxy: LocalProxy;
  clip: Clip;
  sims: Record<string, Simulators>;
  overrides: (run: string) => Promise<Partial<Config>>;
};

export function publishBench(): PublishBench {
  const sims: Record<string, Simulators> = {};
  const bench = {
    sims,
    overrides: async (run: string) => {
      const { sims: s, config } = await publishSimulators();
      sims[run] = s;
      return config;
    },
  } as PublishBench;
  beforeAll(async () => {
    bench.proxy = await startLocalProxy();
    bench.clip = await makePublishClip();
  });
  afterAll(async () => {
    await Promise.all(Object.values(sims).map((s) => s.close()));
    await bench.proxy?.close();
    await bench.clip?.cleanup();
  });
  return bench;
}

/** The posts each simulator has made: "exactly once" is read off these. */
export const postCounts = (s: Simulators) => ({
  youtube: s.google.posts(),
  tiktok: s.tiktok.posts().length,
  instagram: s.instagram.posts().length,
});

/**
 * A user who publishes, in one describeEachDb run (its simulators are the bench's `run + kind`): signed in as
 * `login`, with a profile connected to the three simulators through the bench's proxy. `post` schedules the clip
 * on it (another profile, clip or date as `more` says). Filled in before the run's tests.
 */
export function publisher(ctx: TestCtx, bench: PublishBench, login: string, run = '') {
  const me = {
    userId: 0,
    token: { authorization: '' },
    accountId: 0,
    sims: undefined as unknown as Simulators,
    counts: () => postCounts(me.sims),
    post: (platforms: PlatformKey[], more: Partial<Parameters<typeof schedule>[1]> = {}) =>
      schedule(ctx, { userId: me.userId, accountId: me.accountId, clip: bench.clip.file, platforms, ...more }),
  };
  beforeAll(async () => {
    me.sims = bench.sims[`${run}${ctx.tdb.kind}`]!;
    await listenForMedia(ctx.app);
    me.userId = await ctx.createUser(login, `${login}-pass`);
    me.token = (await ctx.login(login, `${login}-pass`)).headers;
    me.accountId = await connectedProfile(ctx, me.token, bench.proxy.url);
  });
  return me;
}

/** A profile connected to all three simulators through the proxy. */
export async function connectedProfile(ctx: TestCtx, token: { authorization: string }, proxy: string) {
  const r = await ctx.call({
    method: 'POST',
    url: '/api/accounts',
    token,
    payload: {
      proxy,
      inYouTube: true,
      YouTubeAuthClientId: 'yt.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 's',
    },
  });
  const id = r.body.id as number;
  for (const path of [
    `/api/accounts/connect-youtube/${id}`,
    `/api/tiktok/authorize/${id}`,
    `/api/instagram/authorize/${id}`,
  ]) {
    const link = await ctx.call({ method: 'POST', url: path, token });
    const consent = await openConsent(link.body.url);
    const cb = await ctx.call({ method: 'GET', url: consent.location.pathname + consent.location.search });
    if (!String(cb.headers.location).includes('connected=')) throw new Error(`connect failed: ${cb.headers.location}`);
  }
  return id;
}

/**
 * A finished request with one rendered video (the real clip in storage), its publication and one publish row per
 * platform with step 0 enqueued at `date`, as the publications API writes them.
 */
export async function schedule(
  ctx: TestCtx,
  opts: { userId: number; accountId: number; clip: string; platforms: PlatformId[]; date?: Date; title?: string },
) {
  const db = ctx.tdb.db;
  const at = new Date().toISOString();
  const date = (opts.date ?? new Date()).toISOString();
  const idUpload = `up-${Math.random().toString(36).slice(2)}`;
  const requestId = await insertRequest(db, opts.userId, idUpload);
  const key = `videos/${opts.userId}/${idUpload}/0.mp4`;
  await ctx.root.media.storage.put(key, createReadStream(opts.clip));
  const title = opts.title ?? `Шортс ${idUpload}`;
  const pub = await db
    .insertInto('publications')
    .values({
      userId: opts.userId,
      requestId,
      title,
      description: 'Опис',
      tags: '["kadr","shorts"]',
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('publicationPlatforms')
    .values(opts.platforms.map((platform) => ({ publicationId: pub.id, platform })))
    .execute();
  const video = await db
    .insertInto('videos')
    .values({
      userId: opts.userId,
      accountId: opts.accountId,
      createdAt: at,
      status: 'publication',
      idUpload,
      date,
      title,
      description: 'Опис',
      tags: '["kadr","shorts"]',
      requestId,
      outputIndex: 0,
      storageKey: key,
      publicationId: pub.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows: Record<string, number> = {};
  for (const platform of opts.platforms) {
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('videoPublishes')
        .values({
          videoId: video.id,
          platform,
          accountId: opts.accountId,
          state: 'scheduled',
          dueAt: date,
          videoVersion: 1,
          createdAt: at,
          updatedAt: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enqueuePublishStep(
        { enqueue: ctx.root.queue.enqueue, posts: ctx.root.repos.posts },
        trx,
        row.id,
        0,
        new Date(date),
      );
      rows[platform] = row.id;
    });
  }
  return { videoId: video.id, publicationId: pub.id, rows };
}

const TERMINAL = ['published', 'failed', 'cancelled', 'waiting'];

/**
 * Runs the publish jobs until every row of `ids` rests (published, failed, cancelled or waiting), waiting for the
 * next due job between passes (never a fixed sleep as synchronisation: it waits on the queue's own run_at).
 */
export async function settle(ctx: TestCtx, ids: number[], opts: { until?: string[]; maxMs?: number } = {}) {
  const runner = publishRunner(ctx);
  const until = opts.until ?? TERMINAL;
  const deadline = Date.now() + (opts.maxMs ?? 60_000);
  for (;;) {
    await runner.drain();
    const rows = await ctx.tdb.db.selectFrom('videoPublishes').selectAll().where('id', 'in', ids).execute();
    if (rows.every((r) => until.includes(r.state))) return rows;
    if (Date.now() > deadline)
      throw new Error(`rows did not settle: ${JSON.stringify(rows.map((r) => [r.id, r.state, r.error]))}`);
    const next = await nextPublishStep(ctx);
    const wait = next === undefined ? 20 : Math.max(0, next - Date.now());
    await new Promise((r) => setTimeout(r, Math.min(wait + 5, 500)));
  }
}

/** A runner over the publish jobs only, on the test app's queue (tests drive it with drain()). */
export const publishRunner = (ctx: TestCtx) =>
  ctx.root.createJobRunner({ catalogue: ctx.root.jobs.catalogue.filter((j) => j.name.startsWith('publication.')) });

/** When the next queued publish step is due (epoch ms), or undefined when none is queued. */
export async function nextPublishStep(ctx: TestCtx): Promise<number | undefined> {
  const next = await ctx.tdb.db
    .selectFrom('jobs')
    .select('runAt')
    .where('status', '=', 'queued')
    .where('name', '=', publishJob.name)
    .orderBy('runAt')
    .executeTakeFirst();
  return next ? Number(next.runAt) : undefined;
}
