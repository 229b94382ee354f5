import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RENDER_ERRORS } from '../../server/videos/render.worker';
import { renderJob } from '../../server/videos/videos.jobs';
import { workDirOf } from '../../server/videos/video-files';
import { describeEachDb } from '../helpers/app';

describeEachDb('a render job that dies with its worker', (ctx) => {
  it('fails its request visibly and removes its scratch folder; a finished request stays as it is', async () => {
    const userId = await ctx.createUser('olia', 'olia-pass');
    const repo = ctx.root.repos.videos;
    const at = new Date().toISOString();
    const request = (idUpload: string, status: 'loading' | 'success') =>
      repo.insert(ctx.tdb.db, {
        userId,
        idUpload,
        status,
        count: 2,
        isVideo: 0,
        isPhoto: 0,
        isGenerator: 1,
        folders: '[]',
        clipKey: `clips/${userId}/${idUpload}/clip.mp4`,
        clipName: 'clip.mp4',
        error: null,
        createdAt: at,
        updatedAt: at,
      });
    const stuck = await request('stuck', 'loading');
    const done = await request('done', 'success');
    const workRoot = join(ctx.tdb.dataDir, 'work', 'render');
    expect(ctx.root.renderWorkRoot).toBe(workRoot);
    mkdirSync(workDirOf(workRoot, stuck), { recursive: true });
    writeFileSync(join(workDirOf(workRoot, stuck), '0.mp4.part'), 'half a render');

    // The render job's onDead hook, as the composition root registered it.
    const dead = ctx.root.jobs.workers.find((w) => w.job === renderJob)!.onDead!;
    await dead({ requestId: stuck }, 'worker lost (lease expired) on the last attempt');
    await dead({ requestId: done }, 'late');
    await dead({ requestId: 999_999 }, 'gone'); // deleted meanwhile: nothing to do

    expect(await repo.get(null, { id: stuck })).toMatchObject({ status: 'error', error: RENDER_ERRORS.renderFailed });
    expect(await repo.get(null, { id: done })).toMatchObject({ status: 'success', error: null });
    expect(existsSync(workDirOf(workRoot, stuck))).toBe(false);
  });
});
