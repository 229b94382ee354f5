import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeFixtures } from '../api/create-video.fixtures';
import { makePublishClip, postCounts } from '../api/publish.fixtures';
import { startCluster, type Cluster, type ClusterProcess } from '../helpers/cluster';
import { postgresAvailable } from '../helpers/db';
import { filesUnder } from '../helpers/files-under';
import { multipart, type Part } from '../helpers/multipart';
import { signedInApi, type SignedInApi } from '../helpers/server-api';
import { startThrottledProxy, type ThrottledProxy } from '../helpers/throttled-proxy';
import { openConsent } from '../platforms/helpers';

/**
 * The scaled-out shape (issue 20 item 5): 2 API processes and 2 worker processes on one PostgreSQL and one
 * S3 bucket, all started at once on an empty database. Backgrounds go in through one API, the clip through the
 * other; the worker rendering it is SIGKILLed once some outputs are recorded, and a replacement starts. The
 * outputs are published through the first API to the three platform simulators, through a profile proxy slowed
 * to a few hundred KB/s; the worker uploading a post is SIGKILLed mid-upload, and a replacement starts. Then every
 * request finished exactly once: the render's outputs are as asked, each post is on its platform exactly once,
 * and the bucket holds exactly the objects rows name, with no multipart upload left pending.
 */
const pgUp = await postgresAvailable();
const fx = makeFixtures();
const COUNT = 4; // outputs of the render; RENDER_CONCURRENCY=1 renders them one after another
const PUBLISHED = 2; // of them published, each to YouTube, TikTok and Instagram
const RATE = 384 * 1024; // bytes per second through the profile's proxy: an output takes seconds to upload
type Token = string;

describe.skipIf(!pgUp)('scale-out: 2 API + 2 worker processes, one PostgreSQL, one bucket', () => {
  let cluster: Cluster | undefined;
  let proxy: ThrottledProxy | undefined;
  let clip: Awaited<ReturnType<typeof makePublishClip>> | undefined;
  let loop: Awaited<ReturnType<typeof makePublishClip>> | undefined;

  beforeAll(async () => {
    clip = await makePublishClip(); // 4 s: the outputs are long enough for every platform (Instagram: 3 s)
    loop = await makePublishClip({ durationSec: 4, lossless: true }); // over one S3 part: a multipart upload
    proxy = await startThrottledProxy(RATE);
    // A 10 s lease: a living worker on this busy machine (five processes, ffmpeg, a throttled upload) never misses
    // it, so the only steps taken over are the killed workers'.
    cluster = await startCluster({ apis: 2, workers: 2, env: { RENDER_CONCURRENCY: '1', JOB_LEASE_SEC: '10' } });
    cluster.sims.google.processingMs = 0;
    Object.assign(cluster.sims.tiktok.publishSettings, { processingPolls: 0, postIdPolls: 0 });
    cluster.sims.instagram.publishing.finishAfterPolls = 1;
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop(); // first: its workers may be uploading through the proxy
    await proxy?.close();
    await clip?.cleanup();
    await loop?.cleanup();
  }, 120_000);

  /** Polls `probe` every 100 ms until it gives a value; the processes' logs tell why when it never does. */
  async function until<T>(what: string, probe: () => Promise<T | undefined>, maxMs = 180_000): Promise<T> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > deadline) {
        const logs = cluster!.processes.map((p) => `--- ${p.name}\n${p.log().slice(-3000)}`).join('\n');
        throw new Error(`${what} did not happen\n${logs}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const send = async (to: ClusterProcess, token: Token, url: string, parts: Part[]) => {
    const m = multipart(parts);
    const res = await fetch(`${to.url}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...m.headers },
      body: m.payload,
    });
    return { status: res.status, body: await res.json() };
  };

  /**
   * A profile connected to the three simulators through the slow proxy: each consent is asked through `api`;
   * the platform sends the browser back to PUBLIC_URL (the first API), which finishes the connection.
   */
  async function connectedProfile(api: SignedInApi, proxyUrl: string): Promise<number> {
    const { id } = await api('POST', '/api/accounts', {
      proxy: proxyUrl,
      inYouTube: true,
      YouTubeAuthClientId: 'yt.apps.googleusercontent.com',
      YouTubeAuthClientSecret: 's',
    });
    for (const path of [
      `/api/accounts/connect-youtube/${id}`,
      `/api/tiktok/authorize/${id}`,
      `/api/instagram/authorize/${id}`,
    ]) {
      const link = await api('POST', path);
      const consent = await openConsent(link.url);
      const back = await fetch(consent.location, { redirect: 'manual' });
      await back.arrayBuffer();
      expect(back.headers.get('location')).toContain('connected=');
    }
    return id as number;
  }

  /** The living worker running a job of `name` that `when` accepts (its payload), if any. */
  const runningOn = async (name: string, when: (payload: string) => Promise<boolean>) => {
    const jobs = await cluster!.db
      .selectFrom('jobs')
      .select(['lockedBy', 'payload'])
      .where('name', '=', name)
      .where('status', '=', 'running')
      .execute();
    for (const job of jobs) {
      const owner = job.lockedBy ? cluster!.ownerOf(job.lockedBy) : undefined;
      if (owner?.role === 'worker' && (await when(job.payload))) return owner;
    }
    return undefined;
  };

  it('finishes every request exactly once through worker kills, leaving no orphan object, row or upload', async () => {
    const c = cluster!;
    const [api1, api2] = c.apis() as [ClusterProcess, ClusterProcess];
    const one = await signedInApi(api1);
    const two = await signedInApi(api2);

    // Backgrounds through API 1: a picture and a video (stored in more than one part) in one folder.
    const bgVideo = readFileSync(loop!.file);
    expect(bgVideo.length).toBeGreaterThan(5 * 1024 * 1024);
    const folder = await one('POST', '/api/folder/photo-bg', { name: 'Loops' });
    const bgs = await send(api1, one.token, '/api/photo-bg', [
      { name: 'folderId', value: String(folder.id) },
      { name: 'files[]', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 },
      { name: 'videos[]', filename: 'bg.mp4', type: 'video/mp4', data: bgVideo },
    ]);
    expect(bgs.status, JSON.stringify(bgs.body)).toBe(201);

    // The clip through API 2: a render of COUNT outputs.
    const created = await send(api2, two.token, '/api/create-video/create', [
      { name: 'countVideo', value: String(COUNT) },
      { name: 'isPhoto', value: 'true' },
      { name: 'isVideo', value: 'true' },
      { name: 'isGenerator', value: 'true' },
      { name: 'folders[]', value: String(folder.id) },
      { name: 'file', filename: 'clip.mp4', type: 'video/mp4', data: readFileSync(clip!.file) },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, idUpload } = created.body as { id: number; idUpload: string };
    const request = () => one('GET', `/api/create-video/request/${id}`);

    // SIGKILL the worker rendering it once some outputs are recorded and at least two (seconds of work) are not;
    // start a replacement.
    const renderer = await until('a render with some outputs recorded', async () => {
      const r = await request();
      return r.done >= 1 && r.done <= COUNT - 2 ? runningOn('video.render', async () => true) : undefined;
    });
    await renderer.kill('SIGKILL');
    const held = await c.db
      .selectFrom('jobs')
      .select(['status', 'lockedBy'])
      .where('name', '=', 'video.render')
      .execute();
    expect(held).toEqual([{ status: 'running', lockedBy: expect.stringContaining(`:${renderer.pid}:`) }]);
    await c.start('worker');
    const rendered = await until('the render finished', async () => {
      const r = await two('GET', `/api/create-video/request/${id}`);
      return ['success', 'error'].includes(r.status) ? r : undefined;
    });
    expect(rendered).toMatchObject({ status: 'success', progress: 100, done: COUNT, error: null });
    const videos = rendered.video as Array<{ id: number; index: number }>;
    expect(videos.map((v) => v.index)).toEqual([...Array(COUNT).keys()]);

    // Publish PUBLISHED outputs through API 1 to a profile connected through API 2, due now.
    const profile = await connectedProfile(two, proxy!.url);
    const now = new Date().toISOString();
    const publication = await one('POST', `/api/upload-video/${idUpload}`, {
      title: 'Scale-out',
      description: 'Two APIs, two workers',
      tags: ['kadr'],
      accounts: [profile],
      inYouTube: true,
      inTikTok: true,
      inInstagram: true,
      date: now,
      video: videos.slice(0, PUBLISHED).map((v, i) => ({
        id: v.id,
        title: `Scale-out ${i + 1}`,
        description: 'Two APIs, two workers',
        tags: ['kadr'],
        account: profile,
        date: now,
      })),
    });
    const publishRow = (payload: string) =>
      c.db
        .selectFrom('videoPublishes')
        .select('state')
        .where('id', '=', (JSON.parse(payload) as { publishId: number }).publishId)
        .executeTakeFirstOrThrow();

    // SIGKILL the worker of a post whose upload has begun (its remote handle stored), with bytes still to send.
    const uploader = await until('a post uploading', () =>
      runningOn('publication.publish', async (payload) => (await publishRow(payload)).state === 'uploading'),
    );
    await uploader.kill('SIGKILL');
    // The steps it held stay leased to it until their lease runs out; a publish step is never run twice, so
    // each ends dead and its post's next step reconciles with the platform.
    const lost = await c.db
      .selectFrom('jobs')
      .select('key')
      .where('status', '=', 'running')
      .where('lockedBy', 'like', `%:${uploader.pid}:%`)
      .execute();
    expect(lost.length).toBeGreaterThan(0);
    await c.start('worker');
    const rows = await until('every post at rest', async () => {
      const all = await c.db.selectFrom('videoPublishes').select(['id', 'platform', 'state', 'error']).execute();
      return all.length && all.every((r) => ['published', 'failed', 'cancelled'].includes(r.state)) ? all : undefined;
    });

    // Every post published, each exactly once on its platform.
    expect(rows.map((r) => [r.platform, r.state, r.error]).sort()).toEqual(
      ['instagram', 'tiktok', 'youtube'].flatMap((p) => Array(PUBLISHED).fill([p, 'published', null])),
    );
    expect(postCounts(c.sims)).toEqual({ youtube: PUBLISHED, tiktok: PUBLISHED, instagram: PUBLISHED });
    const detail = await two('GET', `/api/upload-video/${publication.id}`);
    expect(detail.video).toHaveLength(PUBLISHED);

    // The render ran twice (the kill cost one attempt) and ended once. The only dead jobs are the publish steps
    // the killed worker held; nothing is left running or failed, nothing queued but the next stats pass.
    const jobs = await c.db.selectFrom('jobs').select(['name', 'key', 'status', 'attempts']).execute();
    expect(jobs.filter((j) => j.name === 'video.render').map((j) => [j.status, j.attempts])).toEqual([['done', 2]]);
    const dead = jobs.filter((j) => j.status === 'dead').map((j) => j.key);
    expect(dead.sort()).toEqual(lost.map((j) => j.key).sort());
    expect(jobs.filter((j) => !['done', 'dead', 'queued'].includes(j.status))).toEqual([]);
    expect(jobs.filter((j) => j.status === 'queued' && j.name !== 'publication.stats')).toEqual([]);

    // One row per output; the bucket holds exactly the objects rows name.
    const outputs = await c.db
      .selectFrom('videos')
      .select(['outputIndex', 'storageKey'])
      .where('requestId', '=', id)
      .orderBy('outputIndex')
      .execute();
    expect(outputs.map((o) => o.outputIndex)).toEqual([...Array(COUNT).keys()]);
    const items = await c.db.selectFrom('backgroundItems').select(['storageKey', 'previewKey']).execute();
    const clips = await c.db.selectFrom('createVideoRequests').select('clipKey').execute();
    const named = [
      ...items.flatMap((i) => [i.storageKey, i.previewKey]),
      ...clips.map((r) => r.clipKey),
      ...outputs.map((o) => o.storageKey),
    ];
    expect(named.every((k) => typeof k === 'string')).toBe(true);
    const { objects } = await c.s3.leftovers(c.bucket);
    expect(objects.sort()).toEqual((named as string[]).sort());

    // The living workers left nothing in their scratch folders.
    for (const w of c.workers()) expect(filesUnder(join(w.dataDir, 'work'))).toEqual([]);

    // No multipart upload left pending: once the processes stopped and the objects are gone, the bucket deletes.
    for (const p of c.processes) if (p.alive()) await p.kill('SIGTERM');
    for (const key of objects) await c.s3.client.send(new DeleteObjectCommand({ Bucket: c.bucket, Key: key }));
    expect(await c.s3.leftovers(c.bucket)).toEqual({ objects: [], pendingUpload: false });
  }, 600_000);
});
