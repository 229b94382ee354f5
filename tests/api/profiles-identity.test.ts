import { describeEachDb } from '../helpers/app';
import { setPlatformState } from '../helpers/connected-tokens';
import { platformMessage } from '../../server/platforms/types';

/**
 * Issue 18 item 1: every answer that names a profile carries what tells it apart (the operator's comment, the
 * id, the platforms' names, @handles and avatars), so three profiles of one channel name read differently.
 */
describeEachDb('profile identity in every answer naming a profile', (ctx) => {
  let admin: { authorization: string };
  let ownerId: number;
  const ids: number[] = [];
  const comments = ['Кухня основний', 'Кухня резерв', null];

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    ownerId = await ctx.createUser('olha', 'olha-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    for (const [i, comment] of comments.entries()) {
      const r = await ctx.tdb.db
        .insertInto('accounts')
        .values({
          userId: ownerId,
          comments: comment,
          createdAt: new Date().toISOString(),
          titleChannel: 'Кулінарія',
          ...(i === 1 ? { titleTikTok: 'Кулінарія TT' } : {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setPlatformState(ctx.tdb.db, r.id, 'youtube', {
        handle: `kulinaria${i}`,
        avatar: `https://yt3.ggpht.com/a${i}`,
      });
      if (i === 1) await setPlatformState(ctx.tdb.db, r.id, 'tiktok', { handle: '@kul_tt' });
      ids.push(r.id);
    }
  });

  const expected = (i: number) => ({
    id: ids[i],
    comments: comments[i],
    handles: [
      { platform: 'youtube', name: 'Кулінарія', username: `kulinaria${i}`, avatar: `https://yt3.ggpht.com/a${i}` },
      ...(i === 1 ? [{ platform: 'tiktok', name: 'Кулінарія TT', username: 'kul_tt', avatar: null }] : []),
    ],
  });

  it('the profile list keeps its name and adds comment and handles', async () => {
    const r = await ctx.call({ method: 'GET', url: `/api/accounts?userId=${ownerId}`, token: admin });
    expect(r.status).toBe(200);
    const rows = [...r.body.data].sort((a, b) => a.id - b.id);
    expect(rows).toEqual([0, 1, 2].map((i) => expect.objectContaining({ ...expected(i), name: 'Кулінарія' })));
  });

  it('select options keep {id, title, value} and add comment and handles; q finds a @handle', async () => {
    const r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(
      [0, 1, 2].map((i) => ({ ...expected(i), title: 'Кулінарія', value: ids[i], failing: false })),
    );
    const found = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0&q=KUL_TT', token: admin });
    expect(found.body.map((o: { id: number }) => o.id)).toEqual([ids[1]]);
    const byComment = await ctx.call({ method: 'GET', url: '/api/accounts/search?q=резерв', token: admin });
    expect(byComment.body.map((o: { id: number }) => o.id)).toEqual([ids[1]]);
  });

  it("a profile's videos carry their title and a signed link to the rendered file (its frame is the thumbnail)", async () => {
    const at = new Date().toISOString();
    for (const [title, storageKey] of [
      ['Суп', `videos/${ownerId}/abc/0.mp4`],
      ['Без файлу', null],
    ] as const)
      await ctx.tdb.db
        .insertInto('videos')
        .values({ userId: ownerId, accountId: ids[0]!, createdAt: at, status: 'success', title, storageKey })
        .execute();
    const r = await ctx.call({ method: 'GET', url: `/api/accounts/${ids[0]}/video`, token: admin });
    expect(r.status).toBe(200);
    const byTitle = Object.fromEntries(r.body.data.map((v: { title: string }) => [v.title, v]));
    const link = byTitle['Суп'].mediaUrl as string;
    expect(link).toMatch(new RegExp(`^/api/media/videos/${ownerId}/abc/0\\.mp4\\?exp=\\d+&sig=`));
    expect(byTitle['Без файлу'].mediaUrl).toBeNull();
    // The link is the media route's own: a valid signature (the file itself is not stored here: 404, not 403).
    expect((await ctx.call({ method: 'GET', url: link })).status).toBe(404);
    // A signature with its first character changed (to one it is not).
    const forged = link.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'x' ? 'y' : 'x'}`);
    expect((await ctx.call({ method: 'GET', url: forged })).status).toBe(403);
  });

  it("a group's members and a user's profiles carry the same", async () => {
    const g = await ctx.call({
      method: 'POST',
      url: '/api/accounts-group',
      token: admin,
      payload: { name: 'Кухні', accounts: ids },
    });
    expect(g.status).toBe(201);
    const detail = await ctx.call({ method: 'GET', url: `/api/accounts-group/${g.body.id}`, token: admin });
    expect(detail.body.accounts).toEqual(
      [0, 1, 2].map((i) => ({ ...expected(i), title: 'Кулінарія', value: ids[i], failing: false })),
    );
    const owned = await ctx.call({ method: 'GET', url: `/api/users/${ownerId}/account`, token: admin });
    expect([...owned.body.data].sort((a, b) => a.id - b.id)).toEqual(
      [0, 1, 2].map((i) => expect.objectContaining({ ...expected(i), name: 'Кулінарія' })),
    );
  });

  it("a failing profile (its status 'error': a dead proxy on a platform it publishes to) is marked in the options", async () => {
    // As the publisher leaves it after a call through a dead proxy: YouTube's error stored, the status 'error'.
    await setPlatformState(ctx.tdb.db, ids[2]!, 'youtube', {
      error: platformMessage('proxy_cannot_reach', { proxy: '203.0.113.9:8080' }),
    });
    await ctx.tdb.db.updateTable('accounts').set({ status: 'error' }).where('id', '=', ids[2]!).execute();
    const r = await ctx.call({ method: 'GET', url: '/api/accounts/search?groupId=0', token: admin });
    expect(r.body.map((o: { id: number; failing: boolean }) => [o.id, o.failing])).toEqual([
      [ids[0], false],
      [ids[1], false],
      [ids[2], true],
    ]);
    const owner = (await ctx.login('olha', 'olha-pass')).headers;
    const mine = await ctx.call({ method: 'GET', url: '/api/accounts/search?q=%23' + ids[2], token: owner });
    expect(mine.body).toEqual([expect.objectContaining({ id: ids[2], failing: true })]);
  });
});
