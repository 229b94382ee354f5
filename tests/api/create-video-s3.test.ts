import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { loadConfig } from '../../server/config';
import type { JobRunner } from '../../server/jobs/index';
import { renderJob } from '../../server/videos/videos.jobs';
import { describeEachDb } from '../helpers/app';
import { filesUnder } from '../helpers/files-under';
import { multipart, type Part } from '../helpers/multipart';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';
import { makeFixtures, probe } from './create-video.fixtures';

const fx = makeFixtures();
let server: S3TestServer | undefined;
const s3 = async () => (server ??= await startS3Server());
afterAll(async () => {
  await server?.stop();
});

/** STORAGE=s3 as an operator sets it, against the local S3 server, one bucket per database run. */
async function s3Env(bucket: string): Promise<Record<string, string>> {
  const s = await s3();
  await s.createBucket(bucket);
  return s.env(bucket);
}
const scratchDataDir = () => mkdtempSync(join(tmpdir(), 'kadr-s3-config-'));

describe('S3 storage configuration', () => {
  it('reads STORAGE=s3 and the S3_* variables; refuses a missing bucket or half a key pair', () => {
    const base = { DATA_DIR: scratchDataDir(), STORAGE: 's3' };
    expect(
      loadConfig({
        ...base,
        S3_BUCKET: 'media',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PART_SIZE_MB: '16',
        S3_UPLOAD_CONCURRENCY: '2',
        S3_STALE_UPLOAD_HOURS: '3',
      }).storage,
    ).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'media',
      credentials: undefined,
      forcePathStyle: true,
      partSize: 16 * 1024 * 1024,
      queueSize: 2,
      staleUploadMs: 3 * 3600_000,
    });
    expect(() => loadConfig(base)).toThrow('S3_BUCKET: required when STORAGE=s3');
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither',
    );
    expect(() => loadConfig({ ...base, S3_BUCKET: 'media', S3_PART_SIZE_MB: '4' })).toThrow(/S3_PART_SIZE_MB/);
    expect(loadConfig({ DATA_DIR: scratchDataDir() }).storage).toEqual({ kind: 'local' });
  });
});

/**
 * The whole flow with STORAGE=s3: backgrounds and a clip uploaded through the API go to the bucket; the render
 * worker downloads its inputs into its scratch folder and uploads its outputs; the output is read back through
 * its signed media link with a Range request (as a <video> and Instagram's fetch of `video_url` do); the
 * publish side reads it by range and probes it; no local copy is left; deleting removes the objects; the
 * orphan sweep removes objects no row names.
 */
describeEachDb(
  'create-video on S3 storage',
  (ctx) => {
    let anna: { authorization: string };
    let annaId: number;
    let runner: JobRunner | undefined;
    const bucket = () => `kadr-${ctx.tdb.kind}`;
    const objects = async () => (await server!.leftovers(bucket())).objects.sort();
    const getObject = async (key: string, range?: string) => {
      const r = await server!.client.send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: range }));
      return Buffer.from(await r.Body!.transformToByteArray());
    };
    const send = async (url: string, parts: Part[]) => {
      const m = multipart(parts);
      return ctx.call({ method: 'POST', url, token: anna, payload: m.payload, headers: m.headers });
    };
    const createRequest = (folders: number[]) =>
      send('/api/create-video/create', [
        { name: 'countVideo', value: '2' },
        { name: 'isPhoto', value: 'true' },
        { name: 'isVideo', value: 'true' },
        { name: 'isGenerator', value: 'true' },
        ...folders.map((f) => ({ name: 'folders[]', value: String(f) })),
        { name: 'file', filename: 'clip.mp4', type: 'video/mp4', data: fx.clip },
      ]);
    const runRenders = () => {
      runner = ctx.root.createJobRunner({ catalogue: [renderJob], backoff: () => 0, pollMs: 50, heartbeatMs: 200 });
      return runner.drain();
    };
    /** Every key a row names: background files and previews, clips, rendered outputs. */
    const namedKeys = async () => {
      const db = ctx.tdb.db;
      const items = await db.selectFrom('backgroundItems').select(['storageKey', 'previewKey']).execute();
      const clips = await db.selectFrom('createVideoRequests').select('clipKey').execute();
      const outputs = await db.selectFrom('videos').select('storageKey').execute();
      return [
        ...items.flatMap((i) => [i.storageKey, i.previewKey!]),
        ...clips.map((c) => c.clipKey),
        ...outputs.flatMap((o) => (o.storageKey ? [o.storageKey] : [])),
      ].sort();
    };
    let folders: number[];

    afterEach(async () => {
      await runner?.stop();
      runner = undefined;
    });

    beforeAll(async () => {
      await ctx.createUser('anna', 'anna-pass');
      ({ headers: anna, userId: annaId } = await ctx.login('anna', 'anna-pass'));
      folders = [];
      for (const [name, files] of [
        ['Photos', [{ name: 'files[]', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 }]],
        ['Loops', [{ name: 'videos[]', filename: 'bg.mp4', type: 'video/mp4', data: fx.bgVideo }]],
      ] as const) {
        const f = await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: anna, payload: { name } });
        const up = await send('/api/photo-bg', [{ name: 'folderId', value: String(f.body.id) }, ...files]);
        expect(up.status, JSON.stringify(up.body)).toBe(201);
        // The preview is served from the bucket through its signed link.
        const preview = await ctx.call({ method: 'GET', url: up.body.data[0].previewUrl });
        expect(preview.status).toBe(200);
        expect(preview.headers['content-type']).toBe('image/jpeg');
        folders.push(f.body.id);
      }
    });

    it('uploads, renders and serves through the bucket, leaving no local copy; delete and the sweep leave only named objects', async () => {
      const r = await createRequest(folders);
      expect(r.status).toBe(201);
      const { id, idUpload } = r.body;
      expect(await objects()).toEqual(await namedKeys()); // the clip and the backgrounds, nothing else
      expect(await runRenders()).toBe(1);

      const detail = await ctx.call({ method: 'GET', url: `/api/create-video/request/${id}`, token: anna });
      expect(detail.body).toMatchObject({ status: 'success', done: 2, error: null });
      const outputs = await ctx.tdb.db
        .selectFrom('videos')
        .select(['storageKey', 'outputIndex'])
        .where('requestId', '=', id)
        .orderBy('outputIndex')
        .execute();
      expect(outputs.map((o) => o.storageKey)).toEqual(
        [0, 1].map((i) => expect.stringContaining(`${idUpload}/${i}.mp4`)),
      );
      expect(await objects()).toEqual(await namedKeys());

      // The media link answers a Range request with the object's bytes (206), and the whole file is the render.
      const key = outputs[0]!.storageKey!;
      const whole = await getObject(key);
      const url = detail.body.video[0].url as string;
      const part = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-1099' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-1099/${whole.length}`);
      expect(part.rawPayload.equals(whole.subarray(100, 1100))).toBe(true);
      const tail = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
      expect(tail.rawPayload.equals(whole.subarray(whole.length - 10))).toBe(true);
      const full = await ctx.app.inject({ method: 'GET', url });
      expect(full.statusCode).toBe(200);
      const file = join(mkdtempSync(join(tmpdir(), 'kadr-s3-out-')), 'out.mp4');
      writeFileSync(file, full.rawPayload);
      expect(probe(file)).toMatchObject({ width: 1080, height: 1920, vcodec: 'h264', acodec: 'aac' });
      execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']); // decodes to the end

      // Publishing reads the same object: by range for YouTube/TikTok, probed for the gates, and Instagram's
      // video_url is Kadr's signed link at PUBLIC_URL (served as above).
      const media = ctx.root.publishing.media;
      const source = (await media.source(key))!;
      expect(source.size).toBe(whole.length);
      const chunks: Buffer[] = [];
      for await (const c of source.open(1000, 3000)) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(whole.subarray(1000, 3000))).toBe(true);
      expect(await media.facts(key)).toMatchObject({ width: 1080, height: 1920, videoCodec: 'h264' });
      const videoUrl = media.publicLink(key);
      expect(videoUrl.startsWith(`${ctx.root.config.publicUrl}/api/media/${key}?`)).toBe(true);
      const fetched = await ctx.app.inject({
        method: 'GET',
        url: videoUrl.slice(ctx.root.config.publicUrl.length),
        headers: { range: 'bytes=0-0' },
      });
      expect([fetched.statusCode, fetched.rawPayload.equals(whole.subarray(0, 1))]).toEqual([206, true]);

      // Nothing stays on this machine: no local media, the render and storage scratch folders are empty.
      expect(filesUnder(join(ctx.tdb.dataDir, 'media'))).toEqual([]);
      expect(filesUnder(join(ctx.tdb.dataDir, 'work'))).toEqual([]);

      // The orphan sweep: an object no row names goes once old enough; every named one stays.
      const stray = `videos/${annaId}/deadbeefdeadbeef/0.mp4`;
      await ctx.app.media.storage.put(stray, Readable.from([Buffer.from('left by a crash')]));
      expect(await ctx.root.sweepOrphanMedia()).toEqual([]);
      expect(await ctx.root.sweepOrphanMedia({ now: Date.now() + 7 * 3600_000 })).toEqual([stray]);
      expect(await objects()).toEqual(await namedKeys());

      // Deleting the request removes its clip and outputs from the bucket.
      expect((await ctx.call({ method: 'DELETE', url: `/api/create-video/${id}`, token: anna })).status).toBe(200);
      expect((await objects()).filter((k) => k.includes(idUpload))).toEqual([]);
      expect(await objects()).toEqual(await namedKeys());
    });

    it('a clip whose object is gone fails the request at once as unreadable, and leaves nothing local', async () => {
      const r = await createRequest(folders);
      expect(r.status).toBe(201);
      const clipKey = (
        await ctx.tdb.db
          .selectFrom('createVideoRequests')
          .select('clipKey')
          .where('id', '=', r.body.id)
          .executeTakeFirstOrThrow()
      ).clipKey;
      await server!.client.send(new DeleteObjectCommand({ Bucket: bucket(), Key: clipKey }));
      expect(await runRenders()).toBe(1); // one attempt: a permanent failure
      const d = await ctx.call({ method: 'GET', url: `/api/create-video/request/${r.body.id}`, token: anna });
      expect(d.body).toMatchObject({ status: 'error', error: 'kadr.videos.errors.clip_unreadable' });
      expect(filesUnder(join(ctx.tdb.dataDir, 'work'))).toEqual([]);
    });
  },
  async (kind) => ({ storage: loadConfig({ DATA_DIR: scratchDataDir(), ...(await s3Env(`kadr-${kind}`)) }).storage }),
);
