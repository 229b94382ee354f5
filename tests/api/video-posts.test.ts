import { describeEachDb } from '../helpers/app';
import { seedStoredRequest } from '../helpers/finished-request';
import { defaultCaption } from '../../src/contract/platform-posts';
import { PUBLISH_TIMING as timing, publishBench, publisher, settle } from './publish.fixtures';

/**
 * Per-video platform texts (issue 21 item 6, per video): each video of a publication may carry its own title or
 * caption per platform (videos.posts, migration 047). A platform gets the video's own text, else the publication's
 * platform text, else the one made from the video's shared fields; the options stay the publication's. Saved with
 * the form, answered in the detail, kept by an edit that does not name it, checked against the same limits (a
 * 400 naming `video.{i}.posts.…`), and what the simulators receive.
 */
const bench = publishBench();

const PAST = () => new Date(Date.now() - 1000).toISOString();
const LATER = '2030-01-01T00:00:00Z';

describeEachDb(
  'per-video platform texts',
  (ctx) => {
    const me = publisher(ctx, bench, 'vp');

    /** A finished request of two rendered videos (the real clip in storage for each). */
    const request = async () => {
      return seedStoredRequest(ctx.tdb.db, ctx.root.media.storage, me.userId, [bench.clip.file, bench.clip.file]);
    };
    const video = (id: number, n: number, date: string, posts?: object) => ({
      id,
      title: `Назва ${n}`,
      description: `Опис ${n}`,
      tags: [`tag${n}`],
      account: me.accountId,
      date,
      ...(posts ? { posts } : {}),
    });
    const body = (videos: object[], over: Record<string, unknown> = {}) => ({
      title: 'Спільна назва',
      description: 'Спільний опис',
      tags: ['kadr'],
      accounts: [me.accountId],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      date: PAST(),
      video: videos,
      ...over,
    });
    const publish = (ref: string, payload: object) =>
      ctx.call({ method: 'POST', url: `/api/upload-video/${ref}`, token: me.token, payload });
    const patch = (id: number, payload: object, token = me.token) =>
      ctx.call({ method: 'PATCH', url: `/api/upload-video/${id}`, token, payload });
    const detail = async (id: number) =>
      (await ctx.call({ method: 'GET', url: `/api/upload-video/${id}`, token: me.token })).body;
    const edit = (over: Record<string, unknown> = {}) => ({
      title: 'Спільна назва',
      description: 'Спільний опис',
      tags: ['kadr'],
      inYouTube: true,
      inTikTok: true,
      inInstagram: false,
      ...over,
    });
    const rowsOf = async (videoIds: number[]) =>
      ctx.tdb.db.selectFrom('videoPublishes').select(['id', 'videoId']).where('videoId', 'in', videoIds).execute();
    const fieldsOf = (r: { body: { errors?: Record<string, string> } }) => Object.keys(r.body.errors ?? {});
    /** The post the platform holds for `videoId` (its row's remote id). */
    const postOf = (done: { videoId: number; platform: string; remoteId: string | null }[], videoId: number) => {
      const on = (platform: string) => done.find((d) => d.videoId === videoId && d.platform === platform)!.remoteId;
      return {
        youtube: me.sims.google.videos.find((v) => v.id === on('youtube')),
        tiktok: me.sims.tiktok.posts().find((p) => p.id === on('tiktok')),
        instagram: me.sims.instagram.posts().find((p) => p.id === on('instagram')),
      };
    };

    it("a video's own text wins over the publication's; empty falls back to it, then to the video's fields", async () => {
      const req = await request();
      const [one, two] = req.videos as [number, number];
      const posts = {
        youtube: { title: 'YouTube: спільна' },
        tiktok: { caption: 'TikTok: спільний #kadr', privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' },
      };
      const own = {
        youtube: { title: 'YouTube: лише друге', description: '' },
        tiktok: { caption: 'TikTok: лише друге 🐈 #два' },
        instagram: { caption: 'Instagram: лише друге #reels' },
      };
      const r = await publish(
        req.idUpload,
        body([video(one, 1, PAST()), video(two, 2, PAST(), own)], { posts, inInstagram: true }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      // Stored without the empty text; the options stay the publication's.
      const saved = {
        youtube: { title: 'YouTube: лише друге' },
        tiktok: { caption: 'TikTok: лише друге 🐈 #два' },
        instagram: { caption: 'Instagram: лише друге #reels' },
      };
      const answered = (d: { video: { id: number; posts: unknown }[] }) =>
        Object.fromEntries(d.video.map((v) => [v.id, v.posts]));
      expect(answered(r.body)).toEqual({ [one]: {}, [two]: saved });
      expect(answered(await detail(r.body.id))).toEqual({ [one]: {}, [two]: saved });
      expect(r.body.posts).toEqual(posts);

      const done = await settle(
        ctx,
        (await rowsOf([one, two])).map((x) => x.id),
      );
      expect(done.map((d) => [d.videoId, d.platform, d.state, d.error]).sort()).toEqual(
        [
          [one, 'instagram', 'published', null],
          [one, 'tiktok', 'published', null],
          [one, 'youtube', 'published', null],
          [two, 'instagram', 'published', null],
          [two, 'tiktok', 'published', null],
          [two, 'youtube', 'published', null],
        ].sort(),
      );
      const first = postOf(done, one);
      const second = postOf(done, two);
      expect(first.tiktok).toMatchObject({ title: 'TikTok: спільний #kadr', privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' });
      expect(second.tiktok).toMatchObject({
        title: 'TikTok: лише друге 🐈 #два',
        privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
      });
      // YouTube: the title is the video's own or the publication's; the description (empty of its own) the video's.
      expect(first.youtube).toMatchObject({ title: 'YouTube: спільна', description: 'Опис 1' });
      expect(second.youtube).toMatchObject({ title: 'YouTube: лише друге', description: 'Опис 2' });
      // Instagram: the publication gave none; video 1's caption is made from its own fields.
      const shared1 = { title: 'Назва 1', description: 'Опис 1', tags: ['tag1'] };
      expect(first.instagram!.caption).toBe(defaultCaption('instagram', shared1));
      expect(second.instagram!.caption).toBe('Instagram: лише друге #reels');
    });

    it('over-limit texts are 400s naming the video and field; nothing is written', async () => {
      const req = await request();
      const [one, two] = req.videos as [number, number];
      const tooLong = await publish(
        req.idUpload,
        body([video(one, 1, LATER), video(two, 2, LATER, { tiktok: { caption: 'a'.repeat(2201) } })]),
      );
      expect(tooLong.body.errors['video.1.posts.tiktok.caption']).toContain('2200');
      const cases: [object, object, string][] = [
        [{}, { tiktok: { caption: 'a'.repeat(2201) } }, 'video.1.posts.tiktok.caption'],
        [{ youtube: { title: 'я'.repeat(101) } }, {}, 'video.0.posts.youtube.title'],
        [{}, { youtube: { description: 'a'.repeat(5001) } }, 'video.1.posts.youtube.description'],
        [{}, { youtube: { title: 'a <b>' } }, 'video.1.posts.youtube.title'],
        [
          {},
          { instagram: { caption: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') } },
          'video.1.posts.instagram.caption',
        ],
      ];
      for (const [a, b, field] of cases) {
        const r = await publish(req.idUpload, body([video(one, 1, LATER, a), video(two, 2, LATER, b)]));
        expect(r.status, field).toBe(400);
        expect(fieldsOf(r), field).toEqual([field]);
        // The message is said in the caller's language (a translated limit).
        expect(r.body.errors[field], field).toMatch(/\S/);
      }
      expect(await rowsOf([one, two])).toEqual([]);
      // 2,200 TikTok characters fit.
      const ok = await publish(
        req.idUpload,
        body([video(one, 1, LATER), video(two, 2, LATER, { tiktok: { caption: 'a'.repeat(2200) } })]),
      );
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      const bad = await patch(
        ok.body.id,
        edit({ video: [{ id: two, posts: { tiktok: { caption: 'a'.repeat(2201) } } }] }),
      );
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['video.0.posts.tiktok.caption']);
      expect((await detail(ok.body.id)).video[1].posts.tiktok.caption).toHaveLength(2200);
    });

    it('an edit without them keeps what was saved; one naming a video replaces its texts; another user gets 404', async () => {
      const req = await request();
      const [one, two] = req.videos as [number, number];
      const r = await publish(
        req.idUpload,
        body([video(one, 1, LATER), video(two, 2, LATER, { tiktok: { caption: 'Друге: перший підпис' } })], {
          posts: { tiktok: { caption: 'Спільний підпис' } },
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = r.body.id as number;
      const own = async () => Object.fromEntries((await detail(id)).video.map((v: any) => [v.id, v.posts]));

      // Without `video`, or naming a video without `posts`: kept (and the publication's text too, without `posts`).
      expect((await patch(id, edit({ title: 'Нова назва' }))).status).toBe(200);
      expect((await patch(id, edit({ video: [{ id: two }] }))).status).toBe(200);
      expect(await own()).toEqual({ [one]: {}, [two]: { tiktok: { caption: 'Друге: перший підпис' } } });
      expect((await detail(id)).posts).toEqual({ tiktok: { caption: 'Спільний підпис' } });

      // Naming video 1 sets its texts; video 2, not named, keeps its own.
      const set1 = await patch(id, edit({ video: [{ id: one, posts: { youtube: { title: 'Перше на YouTube' } } }] }));
      expect(set1.status, JSON.stringify(set1.body)).toBe(200);
      expect(await own()).toEqual({
        [one]: { youtube: { title: 'Перше на YouTube' } },
        [two]: { tiktok: { caption: 'Друге: перший підпис' } },
      });
      // Replaced, and cleared with empty texts.
      const both = await patch(
        id,
        edit({
          video: [
            { id: one, posts: { youtube: { title: '' } } },
            { id: two, posts: { tiktok: { caption: 'Друге: новий підпис' } } },
          ],
        }),
      );
      expect(both.status, JSON.stringify(both.body)).toBe(200);
      expect(await own()).toEqual({ [one]: {}, [two]: { tiktok: { caption: 'Друге: новий підпис' } } });

      // A video not of this publication is a 400 naming it.
      const other = await request();
      const stray = await patch(id, edit({ video: [{ id: other.videos[0]!, posts: {} }] }));
      expect(stray.status).toBe(400);
      expect(fieldsOf(stray)).toEqual(['video.0.id']);

      // Another user: the publication is not found, to read or to edit.
      await ctx.createUser('vp-other', 'vp-other-pass');
      const them = (await ctx.login('vp-other', 'vp-other-pass')).headers;
      expect((await ctx.call({ method: 'GET', url: `/api/upload-video/${id}`, token: them })).status).toBe(404);
      const foreign = await patch(id, edit({ video: [{ id: two, posts: { tiktok: { caption: 'чуже' } } }] }), them);
      expect(foreign.status).toBe(404);
      expect((await own())[two]).toEqual({ tiktok: { caption: 'Друге: новий підпис' } });
    });

    it('an edit before the post goes out: the platform gets the edited text', async () => {
      const req = await request();
      const [one, two] = req.videos as [number, number];
      const r = await publish(
        req.idUpload,
        body([video(one, 1, PAST()), video(two, 2, PAST(), { tiktok: { caption: 'Буде змінено' } })], {
          inYouTube: false,
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const e = await patch(
        r.body.id,
        edit({ inYouTube: false, video: [{ id: two, posts: { tiktok: { caption: 'Після правки #нове' } } }] }),
      );
      expect(e.status, JSON.stringify(e.body)).toBe(200);
      const done = await settle(
        ctx,
        (await rowsOf([one, two])).map((x) => x.id),
      );
      expect(done.map((d) => d.state)).toEqual(['published', 'published']);
      const tt = (v: number) =>
        me.sims.tiktok.posts().find((p) => p.id === done.find((d) => d.videoId === v)!.remoteId);
      expect(tt(two)!.title).toBe('Після правки #нове');
      expect(tt(one)!.title).toBe(
        defaultCaption('tiktok', { title: 'Назва 1', description: 'Опис 1', tags: ['tag1'] }),
      );
    });
  },
  bench.overrides,
  { publishTiming: timing },
);
