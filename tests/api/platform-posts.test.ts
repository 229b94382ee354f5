import { createReadStream } from 'node:fs';
import { describeEachDb, type TestCtx } from '../helpers/app';
import { seedStoredRequest } from '../helpers/finished-request';
import { SIM_PLAYLIST_ID } from '../../sim/platforms/youtube-videos';
import { decodeMessage } from '../../src/contract/stored-message';
import { PUBLISH_TIMING as timing, publishBench, publisher, settle } from './publish.fixtures';

/**
 * Per-platform posts (issue 21 item 6): each platform's own title/caption and options are stored with the
 * publication, checked against the platforms' limits (a 400 naming the field) and TikTok's creator_info, and reach
 * the simulators as the platforms' own fields; a video made by the AI service always carries the platforms' AI
 * disclosure (TikTok is_aigc, YouTube containsSyntheticMedia).
 */
const bench = publishBench();

const DATE = () => new Date(Date.now() - 1000).toISOString();

describeEachDb(
  'per-platform posts',
  (ctx) => {
    const me = publisher(ctx, bench, 'pp');

    /** A finished request of one rendered video (the real clip in storage). */
    const request = async () => {
      return seedStoredRequest(ctx.tdb.db, ctx.root.media.storage, me.userId, [bench.clip.file]);
    };
    const body = (video: number, over: Record<string, unknown> = {}) => ({
      title: 'Спільна назва',
      description: 'Спільний опис',
      tags: ['kadr'],
      accounts: [me.accountId],
      inYouTube: true,
      inTikTok: true,
      inInstagram: true,
      date: DATE(),
      video: [
        {
          id: video,
          title: 'Спільна назва',
          description: 'Спільний опис',
          tags: ['kadr'],
          account: me.accountId,
          date: DATE(),
        },
      ],
      ...over,
    });
    const publish = (ref: string, payload: object) =>
      ctx.call({ method: 'POST', url: `/api/upload-video/${ref}`, token: me.token, payload });
    const rowsOf = async (videoId: number) =>
      (await ctx.tdb.db.selectFrom('videoPublishes').select('id').where('videoId', '=', videoId).execute()).map(
        (r) => r.id,
      );
    const fieldsOf = (r: { body: { errors?: Record<string, string> } }) => Object.keys(r.body.errors ?? {});

    it('stores each platform’s own text and options and sends them: the simulators got them', async () => {
      const req = await request();
      const posts = {
        youtube: {
          title: 'Назва для YouTube',
          description: 'Опис лише для YouTube',
          privacy: 'unlisted',
          categoryId: '27',
          playlistId: SIM_PLAYLIST_ID,
          madeForKids: true,
        },
        tiktok: {
          caption: 'Підпис для TikTok #kadr',
          privacyLevel: 'MUTUAL_FOLLOW_FRIENDS',
          allowDuet: false,
          allowComment: true,
          promotion: 'your_brand',
        },
        instagram: { caption: 'Підпис для Instagram #reels', shareToFeed: false, thumbOffsetMs: 1500 },
      };
      const r = await publish(req.idUpload, body(req.videos[0]!, { posts }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.posts).toEqual(posts);
      const detail = await ctx.call({ method: 'GET', url: `/api/upload-video/${r.body.id}`, token: me.token });
      expect(detail.body.posts).toEqual(posts);

      const done = await settle(ctx, await rowsOf(req.videos[0]!));
      expect(done.map((d) => [d.platform, d.state, d.error]).sort()).toEqual([
        ['instagram', 'published', null],
        ['tiktok', 'published', null],
        ['youtube', 'published', null],
      ]);
      const yt = me.sims.google.videos.at(-1)!;
      expect(yt).toMatchObject({
        title: 'Назва для YouTube',
        description: 'Опис лише для YouTube',
        privacyStatus: 'unlisted',
        categoryId: '27',
        madeForKids: true,
        containsSyntheticMedia: false,
      });
      expect(me.sims.google.playlists.find((p) => p.id === SIM_PLAYLIST_ID)!.videoIds).toContain(yt.id);
      const tt = me.sims.tiktok.posts().at(-1)!;
      expect(tt.title).toBe('Підпис для TikTok #kadr');
      expect(tt.privacyLevel).toBe('MUTUAL_FOLLOW_FRIENDS');
      // The creator's settings turn stitches off (the simulator's creator_info): they stay off.
      expect(tt.postInfo).toEqual({
        disableComment: false,
        disableDuet: true,
        disableStitch: true,
        isAigc: false,
        brandContentToggle: false,
        brandOrganicToggle: true,
      });
      const ig = me.sims.instagram.posts().at(-1)!;
      expect(ig).toMatchObject({ caption: 'Підпис для Instagram #reels', shareToFeed: false, thumbOffset: 1500 });
    });

    it('without own texts each platform gets the shared ones, as before', async () => {
      const req = await request();
      const r = await publish(req.idUpload, body(req.videos[0]!, { inTikTok: false, inInstagram: false }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await settle(ctx, await rowsOf(req.videos[0]!));
      expect(me.sims.google.videos.at(-1)).toMatchObject({
        title: 'Спільна назва',
        description: 'Спільний опис',
        privacyStatus: 'public',
        madeForKids: false,
      });
    });

    it('limits are 400s naming the field: YouTube title and description, TikTok caption, Instagram hashtags', async () => {
      const req = await request();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ youtube: { title: 'я'.repeat(101) } }, 'posts.youtube.title', 'kadr.platform_posts.errors.too_long'],
        [
          { youtube: { description: 'a'.repeat(5001) } },
          'posts.youtube.description',
          'kadr.platform_posts.errors.too_long',
        ],
        [{ tiktok: { caption: 'a'.repeat(2201) } }, 'posts.tiktok.caption', 'kadr.platform_posts.errors.too_long'],
        [
          { instagram: { caption: 'a'.repeat(2201) } },
          'posts.instagram.caption',
          'kadr.platform_posts.errors.too_long',
        ],
        [
          { instagram: { caption: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') } },
          'posts.instagram.caption',
          'kadr.platform_posts.errors.too_many_hashtags',
        ],
        [{ youtube: { privacy: 'secret' } }, 'posts.youtube.privacy', ''],
        [{ instagram: { thumbOffsetMs: -1 } }, 'posts.instagram.thumbOffsetMs', ''],
      ];
      for (const [posts, field, key] of cases) {
        const r = await publish(req.idUpload, body(req.videos[0]!, { posts }));
        expect(r.status, field).toBe(400);
        expect(fieldsOf(r), field).toContain(field);
        if (key) expect(decodeMessage(r.body.errors[field])?.key ?? r.body.errors[field]).toMatch(/./);
      }
      // Nothing was written.
      expect(await rowsOf(req.videos[0]!)).toEqual([]);
      // 100 characters (emoji count as one) and 30 hashtags fit.
      const fits = {
        youtube: { title: '🎬'.repeat(100) },
        instagram: { caption: Array.from({ length: 30 }, (_, i) => `#t${i}`).join(' ') },
      };
      const later = body(req.videos[0]!, { posts: fits });
      later.video[0]!.date = '2030-01-01T00:00:00Z'; // not due while these tests run
      const ok = await publish(req.idUpload, later);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    });

    it("TikTok's creator_info: read per profile; a privacy level or switch it does not offer is refused", async () => {
      const info = await ctx.call({
        method: 'GET',
        url: `/api/upload-video/tiktok/creator-info/${me.accountId}`,
        token: me.token,
      });
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect(info.body).toMatchObject({
        account: me.accountId,
        privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
        stitchDisabled: true,
      });
      // Another user's profile is not found.
      await ctx.createUser('pp-other', 'pp-other-pass');
      const other = (await ctx.login('pp-other', 'pp-other-pass')).headers;
      const foreign = await ctx.call({
        method: 'GET',
        url: `/api/upload-video/tiktok/creator-info/${me.accountId}`,
        token: other,
      });
      expect(foreign.status).toBe(404);

      const req = await request();
      const level = await publish(
        req.idUpload,
        body(req.videos[0]!, { posts: { tiktok: { privacyLevel: 'FOLLOWER_OF_CREATOR' } } }),
      );
      expect(level.status).toBe(400);
      expect(fieldsOf(level)).toEqual(['posts.tiktok.privacyLevel']);
      const stitch = await publish(req.idUpload, body(req.videos[0]!, { posts: { tiktok: { allowStitch: true } } }));
      expect(stitch.status).toBe(400);
      expect(fieldsOf(stitch)).toEqual(['posts.tiktok.allowStitch']);
      const branded = await publish(
        req.idUpload,
        body(req.videos[0]!, { posts: { tiktok: { privacyLevel: 'SELF_ONLY', promotion: 'branded_content' } } }),
      );
      expect(branded.status).toBe(400);
      expect(fieldsOf(branded)).toEqual(['posts.tiktok.privacyLevel']);
      expect(await rowsOf(req.videos[0]!)).toEqual([]);
    });

    it('a level the creator stops offering before the post goes out: the TikTok step refuses it, nothing posted', async () => {
      const req = await request();
      const before = me.sims.tiktok.posts().length;
      const r = await publish(
        req.idUpload,
        body(req.videos[0]!, {
          inYouTube: false,
          inInstagram: false,
          posts: { tiktok: { privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' } },
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const options = me.sims.tiktok.publishSettings.privacyLevelOptions;
      me.sims.tiktok.publishSettings.privacyLevelOptions = ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'];
      try {
        const [row] = await settle(ctx, await rowsOf(req.videos[0]!));
        expect(row!.state).toBe('failed');
        expect(row!.errorKind).toBe('bad-request');
        expect(decodeMessage(row!.error!)?.key).toBe('kadr.platform_errors.tiktok_privacy_mismatch');
      } finally {
        me.sims.tiktok.publishSettings.privacyLevelOptions = options;
      }
      expect(me.sims.tiktok.posts().length).toBe(before);
    });

    it('a video made by the AI service carries is_aigc and containsSyntheticMedia; promotion sets the brand switch', async () => {
      const ai = await aiVideo(ctx, me.userId, bench.clip.file);
      const r = await ctx.call({
        method: 'POST',
        url: `/api/upload-video/ai/${ai}`,
        token: me.token,
        payload: body(ai, {
          inInstagram: false,
          posts: { tiktok: { promotion: 'branded_content', privacyLevel: 'PUBLIC_TO_EVERYONE' } },
        }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const done = await settle(ctx, await rowsOf(r.body.videoId));
      expect(done.map((d) => d.state)).toEqual(['published', 'published']);
      expect(me.sims.google.videos.at(-1)).toMatchObject({ containsSyntheticMedia: true, title: 'Спільна назва' });
      expect(me.sims.tiktok.posts().at(-1)!.postInfo).toMatchObject({
        isAigc: true,
        brandContentToggle: true,
        brandOrganicToggle: false,
      });
    });
  },
  bench.overrides,
  { publishTiming: timing },
);

/** A finished video of the AI service (its file in storage), as the AI video job leaves it. */
async function aiVideo(ctx: TestCtx, userId: number, clip: string): Promise<number> {
  const at = new Date().toISOString();
  const key = `ai/${userId}/${Math.random().toString(36).slice(2)}.mp4`;
  await ctx.root.media.storage.put(key, createReadStream(clip));
  const row = await ctx.tdb.db
    .insertInto('aiVideos')
    .values({
      userId,
      sessionId: null,
      status: 'success',
      prompt: 'Кіт на даху',
      title: 'AI',
      storageKey: key,
      providerJobId: null,
      error: null,
      publicationId: null,
      videoId: null,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
