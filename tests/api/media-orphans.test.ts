import { utimes } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describeEachDb } from '../helpers/app';
import { makeFixtures } from './create-video.fixtures';
import { multipart, type Part } from '../helpers/multipart';

const fx = makeFixtures();
const HOUR = 3600_000;

/**
 * A crash between moving a file into place and committing its row leaves a file nobody names. The sweep
 * that runs when the workers start removes such files once they are old enough, and nothing that a row
 * still names (background files and previews, uploaded clips, rendered outputs), however old.
 */
describeEachDb('orphan media sweep', (ctx) => {
  it('removes old files no row names, keeps every named file and every young one', async () => {
    await ctx.createUser('anna', 'anna-pass');
    const anna = (await ctx.login('anna', 'anna-pass')).headers;
    const storage = ctx.app.media.storage;
    const send = async (url: string, parts: Part[]) => {
      const m = multipart(parts);
      const r = await ctx.call({ method: 'POST', url, token: anna, payload: m.payload, headers: m.headers });
      expect(r.status).toBe(201);
      return r.body;
    };
    const folder = (
      await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: anna, payload: { name: 'Sea' } })
    ).body;
    const item = (
      await send('/api/photo-bg', [
        { name: 'folderId', value: String(folder.id) },
        { name: 'files[]', filename: 'bg1.jpg', type: 'image/jpeg', data: fx.bg1 },
      ])
    ).data[0];
    const request = await send('/api/create-video/create', [
      { name: 'countVideo', value: '1' },
      { name: 'isPhoto', value: 'true' },
      { name: 'isVideo', value: 'false' },
      { name: 'isGenerator', value: 'true' },
      { name: 'folders[]', value: String(folder.id) },
      { name: 'file', filename: 'clip.mp4', type: 'video/mp4', data: fx.clip },
    ]);
    const itemRow = await ctx.tdb.db
      .selectFrom('backgroundItems')
      .select(['storageKey', 'previewKey'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    const requestRow = await ctx.tdb.db
      .selectFrom('createVideoRequests')
      .select(['clipKey', 'userId'])
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    // A rendered output with its row (the worker is off here: the file and row are written as it would).
    const outputKey = `videos/${requestRow.userId}/${request.idUpload}/0.mp4`;
    await storage.put(outputKey, Readable.from([fx.clip]));
    expect(
      await ctx.root.repos.videos.recordOutput(
        ctx.tdb.db,
        { id: request.id, userId: requestRow.userId, idUpload: request.idUpload },
        0,
        { key: outputKey, size: fx.clip.length },
      ),
    ).toBe(true);
    const named = [itemRow.storageKey, itemRow.previewKey!, requestRow.clipKey, outputKey];

    // What crashes leave: files under each prefix with no row, and one that is being committed right now.
    const strays = [
      `backgrounds/${requestRow.userId}/${folder.id}/lost.jpg`,
      'clips/99/deadbeef/clip.mp4',
      'videos/99/deadbeef/3.mp4',
    ];
    for (const key of strays) await storage.put(key, Readable.from([Buffer.from('left by a crash')]));
    const young = `backgrounds/${requestRow.userId}/${folder.id}/just-moved.jpg`;
    await storage.put(young, Readable.from([Buffer.from('row about to be committed')]));
    const old = new Date(Date.now() - 7 * HOUR);
    for (const key of [...named, ...strays]) await utimes(await storage.inputPath(key, ctx.tdb.dataDir), old, old);

    expect((await ctx.root.sweepOrphanMedia()).sort()).toEqual([...strays].sort());
    for (const key of strays) expect(await storage.stat(key)).toBeNull();
    for (const key of [...named, young]) expect(await storage.stat(key), key).not.toBeNull();
    // The named files still serve: the item's signed link answers with its bytes.
    expect((await ctx.call({ method: 'GET', url: item.url })).status).toBe(200);
    // Nothing left to do the second time; the young file goes once it is old and still unnamed.
    expect(await ctx.root.sweepOrphanMedia()).toEqual([]);
    expect(await ctx.root.sweepOrphanMedia({ now: Date.now() + 7 * HOUR })).toEqual([young]);
    for (const key of named) expect(await storage.stat(key), key).not.toBeNull();
  });
});
