import { Readable } from 'node:stream';
import { describeEachDb } from '../helpers/app';
import type { Config } from '../../server/config';
import { startLocalProxy, type LocalProxy, type Simulators } from '../../sim/platforms/index';
import { SIM_FAIL_WORD } from '../../sim/ai/ai-sim';
import { connectedProfile, listenForMedia, publishSimulators, settle } from './publish.fixtures';
import { aiLogin, aiSimulators, settleAiVideos } from './ai.fixtures';

const ai = aiSimulators('openai-videos');
const platforms: Record<string, Simulators> = {};
let proxy: LocalProxy;
beforeAll(async () => {
  proxy = await startLocalProxy();
});
afterAll(async () => {
  await ai.close();
  await Promise.all(Object.values(platforms).map((s) => s.close()));
  await proxy?.close();
});

async function overrides(kind: string): Promise<Partial<Config>> {
  const { sims, config } = await publishSimulators();
  platforms[kind] = sims;
  return { ...config, ...(await ai.overrides(kind)) };
}

const timing = { pollMs: 10, containerPollMs: 20, backoffMs: 10, processingBudgetMs: 20_000, progressEveryMs: 0 };

describeEachDb(
  'AI videos: generate, review, publish',
  (ctx) => {
    let op: { authorization: string };
    let other: { authorization: string };
    let profile: number;
    const email = 'op@gpt.test';
    const videos = async (token = op) => (await ctx.call({ method: 'GET', url: '/api/ai/info/video', token })).body;
    const post = (path: string, payload: object, token = op) =>
      ctx.call({ method: 'POST', url: `/api/ai/setting/${path}`, token, payload });
    const fetchMedia = (url: string) => ctx.app.inject({ method: 'GET', url });
    /** The AI log's lines about video `id` (issue 18 item 8: none stays "processing" once the video settles). */
    const linesAbout = async (id: number) => {
      const all = (await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: op })).body.data;
      return (all as { message: string; status: string }[]).filter((l) => new RegExp(`#${id}(?!\\d)`).test(l.message));
    };

    /** The audit log's entries of publication `id` (issue 23: AI publications are recorded like the form's). */
    const auditOf = async (id: number) =>
      (
        await ctx.tdb.db
          .selectFrom('auditLog')
          .select(['actorLogin', 'action', 'objectType', 'objectId', 'ip', 'detail'])
          .where('objectType', '=', 'publication')
          .where('objectId', '=', String(id))
          .execute()
      ).map((e) => ({ ...e, detail: JSON.parse(e.detail ?? 'null') }));

    beforeAll(async () => {
      await listenForMedia(ctx.app);
      await ctx.createUser('op', 'op-pass');
      await ctx.createUser('other', 'other-pass');
      op = (await ctx.login('op', 'op-pass')).headers;
      other = (await ctx.login('other', 'other-pass')).headers;
      profile = await connectedProfile(ctx, op, proxy.url);
      const r = await aiLogin(ctx, op, { email, idAccount: profile, proxy: proxy.url });
      expect(r.body.status).toBe(200);
    });

    it('the Sora toggle asks the model for a brief, generates, and stores a playable MP4', async () => {
      const r = await post('type', { email, text: 'a fox in the snow', isSora: true });
      expect(r.body.success).toBe(true);
      expect(r.body.message).toMatch(/^Відео замовлено: /);
      let list = await videos();
      expect(list.data[0]).toMatchObject({ status: 'loading', videoUrl: null, userSession: { email } });
      expect(list.data[0].prompt).toContain('a fox in the snow');
      expect(list.data[0].tags.length).toBeGreaterThan(0);
      expect((await linesAbout(list.data[0].id)).map((l) => l.status)).toEqual(['loading']);
      await settleAiVideos(ctx);
      expect((await linesAbout(list.data[0].id)).map((l) => l.status)).toEqual(['success', 'success']);
      list = await videos();
      const v = list.data[0];
      expect(v).toMatchObject({ status: 'success', error: null });
      const file = await fetchMedia(v.videoUrl);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('video/mp4');
      expect(file.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
      const logs = (
        await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: op, headers: { 'accept-language': 'en' } })
      ).body;
      expect(logs.data[0].message).toBe(`Video #${v.id} generated`);
    });

    it('/video with a failing prompt ends in error with the reason in the log', async () => {
      const r = await post('video', { email, text: `${SIM_FAIL_WORD} please` });
      expect(r.body.success).toBe(true);
      await settleAiVideos(ctx);
      const v = (await videos()).data[0];
      expect(v.status).toBe('error');
      // Ours in the caller's language; the provider's words apart, as they are.
      expect(v.error).toBe('Генерація відео не вдалася');
      expect(v.errorDetail).toContain('The simulated generation failed');
      const logs = (await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: op })).body;
      expect(logs.data[0]).toMatchObject({ status: 'error' });
      expect(logs.data[0].message).toContain(`#${v.id}`);
      // The "requested" line no longer says "processing": it ended with the video, in error.
      expect((await linesAbout(v.id)).map((l) => l.status)).toEqual(['error', 'error']);
    });

    it('recreate remixes a finished video and replaces its file; reject frees the file and hides it', async () => {
      const done = (await videos()).data.find((v: any) => v.status === 'success');
      const oldKey = decodeURIComponent(new URL(done.videoUrl, 'http://x').pathname.replace('/api/media/', ''));
      let r = await post('recreate', { videoId: done.id, email });
      expect(r.body).toMatchObject({ success: true });
      expect((await videos()).data.find((v: any) => v.id === done.id).status).toBe('loading');
      expect((await post('recreate', { videoId: done.id })).status).toBe(400);
      await settleAiVideos(ctx);
      const again = (await videos()).data.find((v: any) => v.id === done.id);
      expect(again.status).toBe('success');
      expect((await linesAbout(done.id)).some((l) => l.status === 'loading')).toBe(false);
      expect(again.videoUrl).not.toBe(done.videoUrl);
      expect(await ctx.root.media.storage.stat(oldKey)).toBeNull();
      expect([...ai.sims[ctx.tdb.kind]!.videos.values()].some((x: any) => x.remixed_from_video_id)).toBe(true);

      const newKey = decodeURIComponent(new URL(again.videoUrl, 'http://x').pathname.replace('/api/media/', ''));
      r = await post('close', { videoId: again.id, email }, other);
      expect(r.status).toBe(404);
      r = await post('close', { videoId: again.id, email });
      expect(r.body).toEqual({ success: true, message: 'Відео відхилено' });
      expect(await ctx.root.media.storage.stat(newKey)).toBeNull();
      expect((await videos()).data.some((v: any) => v.id === again.id)).toBe(false);
    });

    it('publish hands the video to the pipeline on the profile platforms; it stays out of the request list', async () => {
      await post('video', { email, text: 'city lights' });
      await settleAiVideos(ctx);
      const v = (await videos()).data[0];
      expect(v.status).toBe('success');
      expect((await post('publication', { videoId: v.id }, other)).status).toBe(404);
      const r = await post('publication', { videoId: v.id });
      expect(r.body).toMatchObject({ success: true });
      const after = (await videos()).data[0];
      expect(after).toMatchObject({ status: 'publication', publication: { status: 'publication' } });
      // Recorded in the audit log as a publication made by its user, from their address.
      expect(await auditOf(after.publication.id)).toEqual([
        {
          actorLogin: 'op',
          action: 'publication.created',
          objectType: 'publication',
          objectId: String(after.publication.id),
          ip: '127.0.0.1',
          detail: {
            aiVideo: v.id,
            platforms: ['youtube', 'tiktok', 'instagram'],
            videos: [{ id: after.publication.videoId, account: profile, date: expect.any(String) }],
          },
        },
      ]);
      expect((await post('publication', { videoId: v.id })).status).toBe(400);
      expect((await post('close', { videoId: v.id })).status).toBe(400);
      // The log names the platforms as people do, not by their keys.
      const log = (await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: op })).body.data[0];
      expect(log.message).toContain('YouTube, TikTok, Instagram');

      const rows = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select('id')
        .where('videoId', '=', after.publication.videoId)
        .execute();
      expect(rows).toHaveLength(3);
      const settled = await settle(
        ctx,
        rows.map((x) => x.id),
      );
      expect(settled.map((x) => x.state)).toEqual(['published', 'published', 'published']);
      expect(platforms[ctx.tdb.kind]!.tiktok.posts().length).toBeGreaterThan(0);
      const published = (await videos()).data[0];
      expect(published.publication).toMatchObject({ status: 'success', error: null });
      // AI publications have no create-video request: not in /api/upload-video.
      const pubs = await ctx.call({ method: 'GET', url: '/api/upload-video', token: op });
      expect(pubs.body.total ?? pubs.body.data?.length ?? 0).toBe(0);
    });

    it('the publish form takes an AI video: prefilled from it, edited, on the platforms chosen, at its date', async () => {
      await post('video', { email, text: 'mountain lake' });
      await settleAiVideos(ctx);
      const v = (await videos()).data[0];
      expect(v.status).toBe('success');
      const src = await ctx.call({ method: 'GET', url: `/api/upload-video/form/ai/${v.id}`, token: op });
      expect(src.status).toBe(200);
      expect(src.body).toMatchObject({
        kind: 'ai',
        id: v.id,
        ready: true,
        publicationId: null,
        title: v.title,
        description: v.description,
        tags: v.tags,
        account: profile,
      });
      expect(src.body.video).toEqual([{ id: v.id, index: 0, url: expect.any(String) }]);
      const conn = await ctx.call({
        method: 'GET',
        url: `/api/upload-video/connections?accounts=${profile}`,
        token: op,
      });
      expect(conn.body).toEqual([{ account: profile, connected: ['youtube', 'tiktok', 'instagram'] }]);
      expect((await ctx.call({ method: 'GET', url: `/api/upload-video/form/ai/${v.id}`, token: other })).status).toBe(
        404,
      );

      const date = new Date(Date.now() - 1000).toISOString();
      const form = (over: Record<string, unknown> = {}) => ({
        title: 'Гірське озеро',
        description: 'Edited',
        tags: ['lake'],
        accounts: [profile],
        inYouTube: true,
        date,
        profiles: [{ account: profile, platforms: ['youtube', 'instagram'] }],
        video: [{ id: v.id, title: 'Гірське озеро', description: 'Edited', tags: ['lake'], account: profile, date }],
        ...over,
      });
      const send = (payload: object, token = op) =>
        ctx.call({ method: 'POST', url: `/api/upload-video/ai/${v.id}`, token, payload });
      expect((await send(form(), other)).status).toBe(404);
      const wrong = await send(form({ video: [{ ...form().video[0], id: v.id + 1000 }] }));
      expect(wrong.status).toBe(400);
      expect(Object.keys(wrong.body.errors)).toEqual(['video.0.id']);
      // Nothing happened yet: the AI video still waits for review.
      expect((await videos()).data[0]).toMatchObject({ id: v.id, status: 'success', publication: null });

      const r = await send(form());
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toEqual({ id: expect.any(Number), videoId: expect.any(Number), skipped: [] });
      expect((await send(form())).status).toBe(400); // once
      expect(await auditOf(r.body.id)).toMatchObject([
        {
          actorLogin: 'op',
          action: 'publication.created',
          detail: { aiVideo: v.id, platforms: ['youtube', 'instagram'], videos: [{ id: r.body.videoId, date }] },
        },
      ]);
      expect((await post('publication', { videoId: v.id })).status).toBe(400);
      const row = await ctx.tdb.db
        .selectFrom('videos')
        .select(['title', 'description', 'tags', 'accountId', 'publicationId', 'date'])
        .where('id', '=', r.body.videoId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ title: 'Гірське озеро', description: 'Edited', accountId: profile });
      expect(JSON.parse(row.tags!)).toEqual(['lake']);
      expect(row.publicationId).toBe(r.body.id);
      const rows = await ctx.tdb.db
        .selectFrom('videoPublishes')
        .select(['id', 'platform'])
        .where('videoId', '=', r.body.videoId)
        .orderBy('platform')
        .execute();
      expect(rows.map((x) => x.platform)).toEqual(['instagram', 'youtube']);
      const settled = await settle(
        ctx,
        rows.map((x) => x.id),
      );
      expect(settled.map((x) => x.state)).toEqual(['published', 'published']);
      expect((await videos()).data[0]).toMatchObject({
        id: v.id,
        status: 'publication',
        publication: { status: 'success', error: null },
      });
      const log = (await ctx.call({ method: 'GET', url: '/api/ai/info/logs', token: op })).body.data[0];
      expect(log.message).toContain('YouTube, Instagram');
    });

    it('the orphan media sweep removes a stray AI file and keeps the ones rows name', async () => {
      await ctx.root.media.storage.put('ai/videos/stray.mp4', Readable.from(Buffer.from('x')));
      const removed = await ctx.root.sweepOrphanMedia({ now: Date.now() + 7 * 3600_000 });
      expect(removed).toEqual(['ai/videos/stray.mp4']);
      const published = (await videos()).data[0];
      expect((await fetchMedia(published.videoUrl)).statusCode).toBe(200);
    });

    it("another user's videos are hidden", async () => {
      expect((await videos(other)).total).toBe(0);
      expect((await post('recreate', { videoId: 1 }, other)).status).toBe(404);
    });
  },
  overrides,
  { publishTiming: timing },
);
