import { describeEachDb } from '../helpers/app';
import { publicationFixtures } from './publications.fixtures';
import { setPlatformState } from '../helpers/connected-tokens';

type Token = { authorization: string };

/**
 * Issue 18 item 6: the YouTube list shows each publication's date, profiles and platforms, and filters by a date
 * range (a video planned in it; UTC days inclusive), by platform and by state, in SQL on both databases.
 */
describeEachDb('publication list: date, profiles, platforms and their filters', (ctx) => {
  const fx = publicationFixtures(ctx);
  let anna: Token;
  let annaId: number;
  let main: number;
  let reserve: number;
  const pubs: Record<string, number> = {};

  const publish = async (count: number, accounts: number[], dates: string[], platforms: Record<string, boolean>) => {
    const req = await fx.request(annaId, count);
    const r = await ctx.call({
      method: 'POST',
      url: `/api/upload-video/${req.idUpload}`,
      token: anna,
      payload: {
        title: `Pub ${req.idUpload}`,
        description: '',
        tags: ['cats'],
        accounts,
        inYouTube: !!platforms.youtube,
        inTikTok: !!platforms.tiktok,
        inInstagram: !!platforms.instagram,
        date: dates[0],
        video: req.videos.map((id, i) => ({
          id,
          title: `V${i}`,
          description: '',
          tags: ['cats'],
          account: accounts[i % accounts.length],
          date: dates[i],
        })),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  };

  beforeAll(async () => {
    annaId = await ctx.createUser('anna', 'anna-pass');
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    main = await fx.account(anna, 'Кухня основний', { youtube: true, tiktok: true });
    reserve = await fx.account(anna, 'Кухня резерв', { youtube: true, tiktok: true });
    await ctx.tdb.db
      .updateTable('accounts')
      .set({ titleChannel: 'Кулінарія' })
      .where('id', 'in', [main, reserve])
      .execute();
    for (const id of [main, reserve]) await setPlatformState(ctx.tdb.db, id, 'tiktok', { handle: 'kul' });
    // March: both profiles, YouTube + TikTok; April: one profile, YouTube only; the same day at its two ends.
    pubs.march = await publish(2, [main, reserve], ['2031-03-10T08:00:00Z', '2031-03-12T09:00:00Z'], {
      youtube: true,
      tiktok: true,
    });
    pubs.april = await publish(1, [reserve], ['2031-04-01T23:59:59.999Z'], { youtube: true });
    pubs.mayFirst = await publish(1, [main], ['2031-05-01T00:00:00.000Z'], { tiktok: true });
  });

  const list = async (query: string) => {
    const r = await ctx.call({ method: 'GET', url: `/api/upload-video?${query}`, token: anna });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const ids = async (query: string) => (await list(query)).data.map((p: { id: number }) => p.id).sort();

  it('each row has its earliest planned date, its platforms and its profiles named by comment, id and handles', async () => {
    const page = await list('');
    const march = page.data.find((p: { id: number }) => p.id === pubs.march);
    expect(march).toMatchObject({
      date: '2031-03-10T08:00:00.000Z',
      platforms: ['youtube', 'tiktok'],
      accounts: [
        {
          id: main,
          comments: 'Кухня основний',
          handles: [
            { platform: 'youtube', name: 'Кулінарія', username: null, avatar: null },
            { platform: 'tiktok', name: null, username: 'kul', avatar: null },
          ],
        },
        expect.objectContaining({ id: reserve, comments: 'Кухня резерв' }),
      ],
    });
    expect(page.data.find((p: { id: number }) => p.id === pubs.april)).toMatchObject({
      platforms: ['youtube'],
      accounts: [expect.objectContaining({ id: reserve })],
    });
  });

  it('filters by a date range: UTC days inclusive at both ends, or instants', async () => {
    expect(await ids('dateFrom=2031-03-11&dateTo=2031-03-31')).toEqual([pubs.march]);
    expect(await ids('dateFrom=2031-04-01&dateTo=2031-04-01')).toEqual([pubs.april]);
    expect(await ids('dateFrom=2031-04-02')).toEqual([pubs.mayFirst]);
    expect(await ids('dateTo=2031-04-30')).toEqual([pubs.march, pubs.april].sort());
    expect(await ids(`dateFrom=${encodeURIComponent('2031-05-01T03:00:00+03:00')}`)).toEqual([pubs.mayFirst]);
    expect(await ids('dateFrom=2031-06-01&dateTo=2031-01-01')).toEqual([]);
  });

  it('filters by platform and by state, together with the date', async () => {
    expect(await ids('platform=tiktok')).toEqual([pubs.march, pubs.mayFirst].sort());
    expect(await ids('platform=instagram')).toEqual([]);
    expect(await ids('platform=youtube&dateFrom=2031-04-01')).toEqual([pubs.april]);
    expect(await ids('status=publication&platform=youtube')).toEqual([pubs.march, pubs.april].sort());
    expect(await ids('status=success')).toEqual([]);
  });

  it('answers a bad filter with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['dateFrom=yesterday', 'dateFrom'],
      ['dateTo=2031-02-30', 'dateTo'],
      ['dateFrom=1999-12-31', 'dateFrom'],
      ['platform=myspace', 'platform'],
    ]) {
      const r = await ctx.call({ method: 'GET', url: `/api/upload-video?${query}`, token: anna });
      expect(r.status, query).toBe(400);
      expect(Object.keys(r.body.errors ?? {}), query).toEqual([field]);
    }
  });
});
