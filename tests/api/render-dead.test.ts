import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VideosRepository } from '../../server/videos/videos.repository';
import { RENDER_ERRORS, renderDead } from '../../server/videos/render.worker';
import { workDirOf } from '../../server/videos/videos.service';
import { describeEachDb } from '../helpers/app';

describeEachDb('a render job that dies with its worker', (ctx) => {
  it('fails its request visibly and removes its scratch folder; a finished request stays as it is', async () => {
    const userId = await ctx.createUser('olia', 'olia-pass');
    const repo = new VideosRepository(ctx.tdb.db);
    const at = new Date().toISOString();
    const request = (idUpload: string, status: 'loading' | 'success') => repo.insert(ctx.tdb.db, {
      userId, idUpload, status, count: 2, isVideo: 0, isPhoto: 0, isGenerator: 1, folders: '[]', clipKey: `clips/${userId}/${idUpload}/clip.mp4`,
      clipName: 'clip.mp4', error: null, createdAt: at, updatedAt: at,
    });
    const stuck = await request('stuck', 'loading');
    const done = await request('done', 'success');
    const workRoot = join(ctx.tdb.dataDir, 'work', 'render');
    mkdirSync(workDirOf(workRoot, stuck), { recursive: true });
    writeFileSync(join(workDirOf(workRoot, stuck), '0.mp4.part'), 'half a render');

    const dead = renderDead({ db: ctx.tdb.db, workRoot });
    await dead({ requestId: stuck });
    await dead({ requestId: done });
    await dead({ requestId: 999_999 }); // deleted meanwhile: nothing to do

    expect(await repo.get(null, { id: stuck })).toMatchObject({ status: 'error', error: RENDER_ERRORS.renderFailed });
    expect(await repo.get(null, { id: done })).toMatchObject({ status: 'success', error: null });
    expect(existsSync(workDirOf(workRoot, stuck))).toBe(false);
  });
});
