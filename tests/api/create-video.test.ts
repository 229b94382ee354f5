import { join } from 'node:path';
import { describeEachDb } from '../helpers/app';
import type { JobRunner } from '../../server/jobs/index';
import type { RenderEngine } from '../../server/videos/render-engine';
import { renderJob, renderWorkRoot } from '../../server/videos/videos.jobs';
import { makeFixtures, probe, sha256 } from './create-video.fixtures';
import { filesUnder } from '../helpers/files-under';
import { multipart, type Part } from '../helpers/multipart';

const fx = makeFixtures();
/** The root's render engine: the real one, unless a test puts a fake in its place for its runner. */
let realEngine: RenderEngine;
let engine: RenderEngine | undefined;
const switchable = (real: RenderEngine): RenderEngine => {
  realEngine = real;
  return { probe: (p) => (engine ?? real).probe(p), renderMany: (...a) => (engine ?? real).renderMany(...a) };
};

describeEachDb(
  'create-video requests API and render worker',
  (ctx) => {
    let admin: { authorization: string };
    let anna: { authorization: string };
    let ivan: { authorization: string };
    let annaFolder: number;
    let annaVideoFolder: number;
    let ivanFolder: number;
    const mediaDir = () => join(ctx.tdb.dataDir, 'media');
    const create = (token: { authorization: string }, parts: Part[]) => {
      const m = multipart(parts);
      return ctx.call({
        method: 'POST',
        url: '/api/create-video/create',
        token,
        payload: m.payload,
        headers: m.headers,
      });
    };
    const clipPart: Part = { name: 'file', filename: 'clip.mp4', type: 'video/mp4', data: fx.clip };
    const fields = (o: Record<string, string | string[]>): Part[] =>
      Object.entries(o).flatMap(([k, v]) =>
        Array.isArray(v) ? v.map((x) => ({ name: `${k}[]`, value: x })) : [{ name: k, value: v }],
      );
    // The render job only (the runner claims nothing else, so other job kinds stay queued).
    let runner: JobRunner | undefined;
    const makeRunner = (fake?: RenderEngine) => {
      engine = fake;
      runner = ctx.root.createJobRunner({ catalogue: [renderJob], backoff: () => 0, pollMs: 50, heartbeatMs: 200 });
      return runner;
    };
    const runWorker = () => makeRunner().drain();
    afterEach(async () => {
      await runner?.stop();
      runner = undefined;
      engine = undefined;
    });

    beforeAll(async () => {
      await ctx.createUser('root', 'root-pass', 'admin');
      await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      admin = (await ctx.login('root', 'root-pass')).headers;
      anna = (await ctx.login('anna', 'anna-pass')).headers;
      ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
      const folder = async (token: typeof anna, name: string, files: Part[]) => {
        const f = await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token, payload: { name } });
        const m = multipart([{ name: 'folderId', value: String(f.body.id) }, ...files]);
        const up = await ctx.call({
          method: 'POST',
          url: '/api/photo-bg',
          token,
          payload: m.payload,
          headers: m.headers,
        });
        expect(up.status).toBe(201);
        return f.body.id as number;
      };
      annaFolder = await folder(anna, 'Photos', [
        { name: 'files[]', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 },
        { name: 'files[]', filename: 'bg2.jpg', type: 'image/jpeg', data: fx.bg2 },
      ]);
      annaVideoFolder = await folder(anna, 'Loops', [
        { name: 'videos[]', filename: 'bg.mp4', type: 'video/mp4', data: fx.bgVideo },
      ]);
      ivanFolder = await folder(ivan, 'Ivan', [
        { name: 'files[]', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 },
      ]);
    });

    it('validates with the SPEC §5 messages and stores nothing for a refused request', async () => {
      const ok = {
        countVideo: '1',
        isVideo: 'false',
        isPhoto: 'true',
        isGenerator: 'true',
        folders: [String(annaFolder)],
      };
      let r = await create(anna, fields(ok));
      expect(r.status).toBe(400);
      expect(r.body.errors.file).toBe('Мінімум одне відео');
      r = await create(anna, [...fields(ok), clipPart, { ...clipPart, filename: 'second.mp4' }]);
      expect(r.body.errors.file).toBe('Максимум одне відео');
      r = await create(anna, [
        ...fields(ok),
        { name: 'file', filename: 'fake.mp4', type: 'video/mp4', data: Buffer.from('not a video at all, just text') },
      ]);
      expect(r.status).toBe(400);
      expect(r.body.errors.file).toBe('Файл повинен бути відео');
      r = await create(anna, [...fields(ok), { name: 'file', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 }]);
      expect(r.body.errors.file).toBe('Файл повинен бути відео');
      r = await create(anna, [...fields({ ...ok, folders: [] }), clipPart]);
      expect(r.body.errors.folders).toBe('Мінімум одна папка з фоном');
      const { countVideo: _c, ...noCount } = ok;
      r = await create(anna, [...fields(noCount), clipPart]);
      expect(r.body.errors.countVideo).toBe('Обовʼязкове до заповнення');
      for (const bad of ['0', '51', 'abc', '2.5']) {
        r = await create(anna, [...fields({ ...ok, countVideo: bad }), clipPart]);
        expect(r.status).toBe(400);
        expect(r.body.errors.countVideo).toBe('Кількість відео від 1 до 50');
      }
      // Another user's folder by id: refused, as if it did not exist.
      r = await create(anna, [...fields({ ...ok, folders: [String(ivanFolder)] }), clipPart]);
      expect(r.status).toBe(400);
      expect(r.body.errors.folders).toBe('Папку з фоном не знайдено або вона вам недоступна');
      // Background video asked for, but the folder holds only pictures.
      r = await create(anna, [...fields({ ...ok, isVideo: 'true', isPhoto: 'false' }), clipPart]);
      expect(r.body.errors.folders).toBe('У вибраних папках немає відео для фону');
      r = await ctx.call({ method: 'POST', url: '/api/create-video/create', token: anna, payload: { countVideo: 1 } });
      expect(r.status).toBe(400);
      r = await create({ authorization: 'Bearer nope' }, [...fields(ok), clipPart]);
      expect(r.status).toBe(401);
      expect(await ctx.tdb.db.selectFrom('createVideoRequests').selectAll().execute()).toEqual([]);
      expect(await ctx.tdb.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
      expect(filesUnder(mediaDir()).filter((f) => f.startsWith('clips/') || f.startsWith('.staging/'))).toEqual([]);
    });

    it('renders a request through the worker: countVideo probed outputs, distinct, success; owner rules; delete removes everything', async () => {
      const r = await create(anna, [
        ...fields({
          countVideo: '3',
          isVideo: 'false',
          isPhoto: 'true',
          isGenerator: 'true',
          folders: [String(annaFolder)],
        }),
        clipPart,
      ]);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        status: 'pending',
        progress: 0,
        count: 3,
        error: null,
        options: { isPhoto: true, isVideo: false, isGenerator: true, folders: [annaFolder] },
      });
      const { id, idUpload } = r.body;
      expect(idUpload).toMatch(/^[0-9a-f]{16}$/);
      // Enqueued exactly once, in the same transaction as the request.
      expect(
        (await ctx.tdb.db.selectFrom('jobs').selectAll().execute()).map((j) => [
          j.name,
          j.status,
          JSON.parse(j.payload),
        ]),
      ).toEqual([['video.render', 'queued', { requestId: id }]]);

      expect(await runWorker()).toBe(1);
      const detail = await ctx.call({ method: 'GET', url: `/api/create-video/request/${id}`, token: anna });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ id, idUpload, status: 'success', progress: 100, done: 3, error: null });
      expect(detail.body.video).toHaveLength(3);
      const byUpload = await ctx.call({ method: 'GET', url: `/api/create-video/request/${idUpload}`, token: anna });
      expect(byUpload.body.id).toBe(id);

      const rows = await ctx.tdb.db
        .selectFrom('videos')
        .selectAll()
        .where('requestId', '=', id)
        .orderBy('outputIndex')
        .execute();
      expect(rows.map((v) => [v.outputIndex, v.status, v.idUpload, v.userId])).toEqual(
        [0, 1, 2].map((i) => [i, 'noactive', idUpload, rows[0]!.userId]),
      );
      const paths = rows.map((v) => join(mediaDir(), v.storageKey!));
      for (const p of paths) {
        const info = probe(p);
        expect(info).toMatchObject({
          width: 1080,
          height: 1920,
          vcodec: 'h264',
          acodec: 'aac',
          pixFmt: 'yuv420p',
          profile: 'High',
          fps: '30/1',
          sampleRate: '48000',
        });
        expect(info.duration).toBeGreaterThan(1.8);
        expect(info.duration).toBeLessThan(2.15);
      }
      expect(new Set(paths.map(sha256)).size).toBe(3);
      // The signed link serves the file.
      const media = await ctx.call({ method: 'GET', url: detail.body.video[0].url, headers: { range: 'bytes=0-99' } });
      expect(media.status).toBe(206);

      // Lists: the owner's and the admin's; another user sees nothing and gets 404 by id.
      expect((await ctx.call({ method: 'GET', url: '/api/create-video?page=1', token: anna })).body).toMatchObject({
        total: 1,
        page: 1,
        totalPages: 1,
        data: [{ id, idUpload, status: 'success', progress: 100 }],
      });
      expect(
        (await ctx.call({ method: 'GET', url: '/api/create-video', token: admin })).body.data.map((x: any) => x.id),
      ).toContain(id);
      expect((await ctx.call({ method: 'GET', url: '/api/create-video', token: ivan })).body.total).toBe(0);
      expect((await ctx.call({ method: 'GET', url: `/api/create-video/request/${id}`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'DELETE', url: `/api/create-video/${id}`, token: ivan })).status).toBe(404);
      expect((await ctx.call({ method: 'GET', url: '/api/create-video?page=x', token: anna })).status).toBe(400);

      const del = await ctx.call({ method: 'DELETE', url: `/api/create-video/${id}`, token: anna });
      expect(del.status).toBe(200);
      expect((await ctx.call({ method: 'GET', url: `/api/create-video/request/${id}`, token: anna })).status).toBe(404);
      expect(await ctx.tdb.db.selectFrom('videos').selectAll().where('idUpload', '=', idUpload).execute()).toEqual([]);
      expect(filesUnder(mediaDir()).filter((f) => f.includes(idUpload))).toEqual([]);
      expect(await ctx.tdb.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
    });

    it('renders with a background video (looped, random start), with pictures and videos alternating, and with the blurred clip', async () => {
      const a = await create(anna, [
        ...fields({
          countVideo: '2',
          isVideo: 'true',
          isPhoto: 'false',
          isGenerator: 'false',
          folders: [String(annaVideoFolder)],
        }),
        clipPart,
      ]);
      const b = await create(admin, [
        ...fields({
          countVideo: '1',
          isVideo: 'false',
          isPhoto: 'false',
          isGenerator: 'true',
          folders: [String(ivanFolder)],
        }),
        clipPart,
      ]);
      const c = await create(anna, [
        ...fields({
          countVideo: '2',
          isVideo: 'true',
          isPhoto: 'true',
          isGenerator: 'true',
          folders: [String(annaFolder), String(annaVideoFolder)],
        }),
        clipPart,
      ]);
      expect([a.status, b.status, c.status]).toEqual([201, 201, 201]); // an admin may use anyone's folder
      expect(await runWorker()).toBe(3);
      for (const id of [a.body.id, b.body.id, c.body.id]) {
        const d = await ctx.call({ method: 'GET', url: `/api/create-video/request/${id}`, token: admin });
        expect(d.body.status).toBe('success');
        for (const v of d.body.video) {
          const row = await ctx.tdb.db
            .selectFrom('videos')
            .select('storageKey')
            .where('id', '=', v.id)
            .executeTakeFirstOrThrow();
          expect(probe(join(mediaDir(), row.storageKey!))).toMatchObject({
            width: 1080,
            height: 1920,
            vcodec: 'h264',
            acodec: 'aac',
          });
        }
      }
      expect(filesUnder(renderWorkRoot(ctx.tdb.dataDir))).toEqual([]);
    });

    it('a render that keeps failing ends the request in error with a readable reason; the job is dead with the detail', async () => {
      const broken: RenderEngine = {
        probe: (p) => realEngine.probe(p),
        renderMany: async (plans, _clip, { onOutput }) => {
          for (const p of plans) await onOutput(p.index, new Error('encoder exploded'));
        },
      };
      const r = await create(anna, [
        ...fields({
          countVideo: '2',
          isVideo: 'false',
          isPhoto: 'false',
          isGenerator: 'true',
          folders: [String(annaFolder)],
        }),
        clipPart,
      ]);
      expect(await makeRunner(broken).drain()).toBe(3); // three attempts (no backoff in this test)
      const d = await ctx.call({ method: 'GET', url: `/api/create-video/request/${r.body.id}`, token: anna });
      expect(d.body).toMatchObject({ status: 'error', error: 'kadr.videos.errors.render_failed', video: [] });
      const job = await ctx.tdb.db
        .selectFrom('jobs')
        .selectAll()
        .where('key', '=', `video.render:${r.body.id}`)
        .executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'dead', attempts: 3 });
      expect(job.lastError).toContain('encoder exploded');
      expect((await ctx.call({ method: 'DELETE', url: `/api/create-video/${r.body.id}`, token: anna })).status).toBe(
        200,
      );
    });

    it('deleting a request while it renders stops the render and leaves nothing behind', async () => {
      let started!: () => void;
      const running = new Promise<void>((res) => {
        started = res;
      });
      let abortedWith: unknown;
      const slow: RenderEngine = {
        probe: (p) => realEngine.probe(p),
        renderMany: (_plans, _clip, { signal }) =>
          new Promise((_res, rej) => {
            started();
            signal.addEventListener('abort', () => {
              abortedWith = signal.reason;
              rej(new Error('aborted'));
            });
          }),
      };
      const r = await create(anna, [
        ...fields({
          countVideo: '2',
          isVideo: 'false',
          isPhoto: 'false',
          isGenerator: 'true',
          folders: [String(annaFolder)],
        }),
        clipPart,
      ]);
      const runner = makeRunner(slow).start();
      await running;
      expect(
        (await ctx.call({ method: 'GET', url: `/api/create-video/request/${r.body.id}`, token: anna })).body.status,
      ).toBe('loading');
      expect((await ctx.call({ method: 'DELETE', url: `/api/create-video/${r.body.id}`, token: anna })).status).toBe(
        200,
      );
      await vi.waitFor(() => expect(abortedWith).toBe('cancelled'));
      await vi.waitFor(() => expect(runner.active).toBe(0));
      await runner.stop();
      expect(
        await ctx.tdb.db.selectFrom('jobs').selectAll().where('key', '=', `video.render:${r.body.id}`).execute(),
      ).toEqual([]);
      expect(filesUnder(mediaDir()).filter((f) => f.includes(r.body.idUpload))).toEqual([]);
      expect(filesUnder(renderWorkRoot(ctx.tdb.dataDir))).toEqual([]);
    });
  },
  { renderConcurrency: 1 },
  { renderEngine: switchable },
);
