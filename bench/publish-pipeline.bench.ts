import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDb, migrateToLatest } from '../server/db/index';
import { startSimulators } from '../sim/platforms/index';
import { startLocalProxy } from '../sim/platforms/local-proxy';
import { startWorkers } from '../server/workers';
import type { TestCtx } from '../tests/helpers/app';
import { connectedProfile, listenForMedia, makePublishClip, schedule, withLimits } from '../tests/api/publish.fixtures';
import { insertUser } from '../tests/helpers/db';

const VIDEOS = 100;
const PROFILES = 20;
const PLATFORMS = ['youtube', 'tiktok', 'instagram'] as const;

/**
 * The publishing pipeline end to end: 100 rendered videos (small real MP4s) across 20 profiles, each to YouTube,
 * TikTok and Instagram against the local simulators, every call through a profile proxy, run by the same
 * workers `npm start` runs (one process, SQLite). Prints the time from the workers' start until every row is
 * published, posts per second, and the process's peak RSS while publishing.
 */
export async function publishPipelineBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kadr-bench-publish-'));
  const sims = await startSimulators();
  sims.google.processingMs = 0;
  sims.google.insertCallsLeft = Number.POSITIVE_INFINITY;
  Object.assign(sims.tiktok.publishSettings, { postsPer24h: 10_000, processingPolls: 1, postIdPolls: 1 });
  Object.assign(sims.instagram.publishing, { limit: 10_000, finishAfterPolls: 1 });
  const proxy = await startLocalProxy();
  const clip = await makePublishClip();
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, WORKERS: 'off', JOB_POLL_MS: '50' } as never, {
    panelDir: '/nonexistent',
    platforms: sims.config,
    platformTimeoutMs: 10_000,
    allowPrivateProxies: true, // the local proxy listens on 127.0.0.1
  });
  const { db } = createDb(config);
  await migrateToLatest(db);
  const app = await buildApp(
    { config, db, dbKind: 'sqlite' },
    {
      publishTiming: { pollMs: 200, containerPollMs: 200, backoffMs: 200, progressEveryMs: 1000 },
      platforms: withLimits({ youtube: { posts: 1000 }, tiktok: { posts: 1000 }, instagram: { posts: 1000 } }),
    },
  );
  await listenForMedia(app);
  try {
    const call: TestCtx['call'] = async ({ token, ...opts }) => {
      const res = await app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ?? {}) } });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
    };
    const ctx = { app, root: app.root, call, tdb: { db, kind: 'sqlite', dataDir } } as unknown as TestCtx;
    const user = { id: await insertUser(db, 'bench', 'bench-pass') };
    const login = await call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'bench', password: 'bench-pass' },
    });
    const token = { authorization: `Bearer ${login.body.accessToken}` };
    const profiles: number[] = [];
    for (let i = 0; i < PROFILES; i++) profiles.push(await connectedProfile(ctx, token, proxy.url));
    const ids: number[] = [];
    for (let i = 0; i < VIDEOS; i++) {
      const { rows } = await schedule(ctx, {
        userId: user.id,
        accountId: profiles[i % PROFILES]!,
        clip: clip.file,
        platforms: [...PLATFORMS],
      });
      ids.push(...Object.values(rows));
    }

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const baseRss = peakRss;
    const t = performance.now();
    const workers = await startWorkers(app.root, { pollMs: 50 });
    let rows: { state: string; error: string | null }[] = [];
    for (;;) {
      rows = await db.selectFrom('videoPublishes').select(['state', 'error']).where('id', 'in', ids).execute();
      if (rows.every((r) => ['published', 'failed', 'cancelled', 'waiting'].includes(r.state))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    await workers.stop();
    const published = rows.filter((r) => r.state === 'published').length;
    const posts = sims.google.posts() + sims.tiktok.posts().length + sims.instagram.posts().length;
    const notPublished = rows.filter((r) => r.state !== 'published');
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`${VIDEOS} videos × ${PLATFORMS.length} platforms across ${PROFILES} profiles (SQLite, one process)`);
    console.log(`  published ${published}/${ids.length} rows, simulators counted ${posts} posts`);
    if (notPublished.length) console.log(`  not published: ${JSON.stringify(notPublished.slice(0, 5))}`);
    console.log(`  total ${seconds.toFixed(1)} s, ${(published / seconds).toFixed(2)} posts/s`);
    console.log(`  peak RSS ${mb(peakRss)} MB (${mb(baseRss)} MB before publishing, +${mb(peakRss - baseRss)} MB)`);
    if (posts !== ids.length || published !== ids.length) throw new Error('not every row was published exactly once');
  } finally {
    await app.close();
    await db.destroy();
    await sims.close();
    await proxy.close();
    await clip.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
