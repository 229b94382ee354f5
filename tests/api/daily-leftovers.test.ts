import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';
import { encodeMessage } from '../../src/contract/stored-message';
import { setPlatformState } from '../helpers/connected-tokens';

type Token = { authorization: string };

/**
 * Issue 18 leftovers: a publication's edit plans platforms per profile as the publish form does (skipped, never an
 * all-or-nothing refusal); the profile list finds a profile by its platform handles and its comment.
 */
describeEachDb('daily use leftovers: per-profile edit, profile search by handle', (ctx) => {
  const fx = publicationFixtures(ctx);
  let anna: Token;
  let annaId: number;
  let main: number; // YouTube + TikTok
  let full: number; // all three

  beforeAll(async () => {
    ({ anna, annaId, main, full } = await fx.annaWithProfiles());
  });

  /** A publication of two videos, the first on `main`, the second on `full`, on YouTube + TikTok in 2030. */
  const published = async () => {
    const req = await fx.request(annaId, 2);
    const r = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: {
        title: 'Shared',
        description: '',
        tags: ['a'],
        accounts: [main, full],
        inYouTube: true,
        inTikTok: true,
        inInstagram: false,
        date: '2030-01-01T00:00:00Z',
        video: req.videos.map((id, i) => ({
          id,
          title: `Own ${i}`,
          description: '',
          tags: ['a'],
          account: [main, full][i],
          date: '2030-01-01T10:00:00Z',
        })),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { videos: req.videos as [number, number], pub: r.body as { id: number } };
  };
  const states = async (videoId: number) =>
    Object.fromEntries((await fx.publishes([videoId])).map((r) => [r.platform, r.state]));
  const patch = (id: number, payload: Record<string, unknown>) =>
    ctx.call({ method: 'PATCH', url: `/api/upload-video/${id}`, token: anna, payload });

  it('an edit takes the platforms per profile, skips what a profile lacks and says so', async () => {
    const { videos, pub } = await published();
    const [onMain, onFull] = videos;
    const r = await patch(pub.id, {
      title: 'Shared',
      tags: ['a'],
      inYouTube: true,
      inTikTok: true,
      inInstagram: true,
      profiles: [
        { account: main, platforms: ['youtube', 'instagram'] },
        { account: full, platforms: ['tiktok', 'instagram'] },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Main lacks Instagram: skipped and said, the rest saved (no refusal of the whole edit).
    expect(r.body.skipped).toEqual([{ video: onMain, account: main, platform: 'instagram', reason: 'not_connected' }]);
    expect(await states(onMain)).toEqual({ youtube: 'scheduled', tiktok: 'cancelled' });
    expect(await states(onFull)).toEqual({ youtube: 'cancelled', tiktok: 'scheduled', instagram: 'scheduled' });
    expect(r.body).toMatchObject({ inYouTube: true, inTikTok: true, inInstagram: true });

    // Back again: YouTube for both, the cancelled rows revive.
    const back = await patch(pub.id, {
      title: 'Shared',
      tags: ['a'],
      inYouTube: true,
      profiles: [
        { account: main, platforms: ['youtube', 'tiktok'] },
        { account: full, platforms: ['youtube'] },
      ],
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.skipped).toEqual([]);
    expect(await states(onMain)).toEqual({ youtube: 'scheduled', tiktok: 'scheduled' });
    expect(await states(onFull)).toEqual({ youtube: 'scheduled', tiktok: 'cancelled', instagram: 'cancelled' });
  });

  it('an edit that would publish nothing is refused naming the platforms, and bad profiles are a 400', async () => {
    const { videos, pub } = await published();
    const nothing = await patch(pub.id, {
      title: 'Shared',
      tags: ['a'],
      profiles: [
        { account: main, platforms: ['instagram'] },
        { account: full, platforms: [] },
      ],
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors.inYouTube).toBeTruthy();
    const bad = await patch(pub.id, { title: 'Shared', tags: ['a'], profiles: [{ account: main, platforms: ['x'] }] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toContain('profiles.0.platforms.0');
    // Nothing was written.
    expect(await states(videos[0])).toEqual({ youtube: 'scheduled', tiktok: 'scheduled' });
  });

  it('the profile list finds a profile by its @handle with or without the @, and by its comment', async () => {
    const id = await fx.account(anna, 'Кухня основний', { youtube: true });
    const other = await fx.account(anna, 'Other', { tiktok: true });
    await setPlatformState(ctx.tdb.db, id, 'tiktok', { handle: 'cook_master' });
    await setPlatformState(ctx.tdb.db, id, 'instagram', { handle: '@insta.cook' });
    await setPlatformState(ctx.tdb.db, other, 'youtube', { handle: 'othertube' });
    const found = async (q: string) => {
      const r = await ctx.call({ method: 'GET', url: `/api/accounts?q=${encodeURIComponent(q)}`, token: anna });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.data as { id: number }[]).map((a) => a.id);
    };
    expect(await found('@cook_master')).toEqual([id]);
    expect(await found('COOK_MAST')).toEqual([id]);
    expect(await found('@insta.cook')).toEqual([id]);
    expect(await found('insta.cook')).toEqual([id]);
    expect(await found('кухня')).toEqual([id]);
    expect(await found('@othertube')).toEqual([other]);
    // LIKE's wildcards are taken literally in a handle too.
    expect(await found('@cook%')).toEqual([]);
    // The profile select options (the pickers) find by @handle as well.
    const options = await ctx.call({ method: 'GET', url: '/api/accounts/search?q=%40cook_master', token: anna });
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect(options.body.map((o: { id: number }) => o.id)).toEqual([id]);
  });

  it("an AI session's error: the reason in the caller's language, the provider's words apart; its profile named", async () => {
    const at = new Date().toISOString();
    await setPlatformState(ctx.tdb.db, main, 'tiktok', { handle: 'anna_tt' });
    const stored = encodeMessage('kadr.ai_errors.with_detail', {
      message: encodeMessage('kadr.ai_errors.rate_limit', { provider: 'GPT' }),
      detail: 'Rate limit reached for gpt-4o in organization org-x',
    });
    const { id } = await ctx.tdb.db
      .insertInto('aiSessions')
      .values({
        userId: annaId,
        accountId: main,
        email: 'anna@gpt.test',
        status: 'error',
        isActive: 0,
        errorText: stored,
        passwordSealed: null,
        passwordDeepseekSealed: null,
        proxySealed: null,
        browserStateGptSealed: null,
        browserStateDeepseekSealed: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [lang, text] of [
      ['uk', 'GPT: забагато запитів, спробуйте пізніше'],
      ['en', 'GPT: too many requests, try again later'],
    ] as const) {
      const r = await ctx.call({
        method: 'GET',
        url: `/api/ai/info/${id}`,
        token: anna,
        headers: { 'accept-language': lang },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        errorText: text,
        errorDetail: 'Rate limit reached for gpt-4o in organization org-x',
        account: { id: main, comments: 'Main', handles: [expect.objectContaining({ username: 'anna_tt' })] },
      });
    }
  });
});
