import type { FolderItemForRender } from '../../server/backgrounds/index';
import { PermanentJobError } from '../../server/jobs/index';
import { planBackgrounds, RENDER_ERRORS } from '../../server/videos/render.worker';

/** Which background each output of a request gets, for every combination of the two background toggles. */
const item = (id: number, type: 'image' | 'video'): FolderItemForRender => ({
  id,
  folderId: 1,
  type,
  key: `k${id}`,
  path: `/media/${type}-${id}`,
});
const images = [item(1, 'image'), item(2, 'image'), item(3, 'image')];
const videos = [item(4, 'video'), item(5, 'video')];
const probed: string[] = [];
const probe = async (p: string) => {
  probed.push(p);
  return { duration: 12, width: 1080, height: 1920, hasAudio: false };
};
const req = (o: { count: number; isPhoto: boolean; isVideo: boolean }) => ({
  idUpload: 'u-1',
  isPhoto: o.isPhoto ? 1 : 0,
  isVideo: o.isVideo ? 1 : 0,
  count: o.count,
});

describe('planBackgrounds: the background of each output', () => {
  beforeEach(() => {
    probed.length = 0;
  });

  it('neither toggle: a blurred copy of the clip for every output, whatever the folders hold', async () => {
    expect(
      await planBackgrounds(req({ count: 3, isPhoto: false, isVideo: false }), [...images, ...videos], probe),
    ).toEqual([{ kind: 'blur' }, { kind: 'blur' }, { kind: 'blur' }]);
  });

  it('picture only: pictures, all different while the folders hold enough, never a video', async () => {
    const bgs = await planBackgrounds(req({ count: 3, isPhoto: true, isVideo: false }), [...images, ...videos], probe);
    expect(bgs.map((b) => b.kind)).toEqual(['image', 'image', 'image']);
    expect(new Set(bgs.map((b) => (b as { path: string }).path)).size).toBe(3);
  });

  it('video only: videos with their probed length (for the seeded start), different while there are enough', async () => {
    const bgs = await planBackgrounds(req({ count: 2, isPhoto: false, isVideo: true }), [...images, ...videos], probe);
    expect(bgs.map((b) => b.kind)).toEqual(['video', 'video']);
    expect(bgs.map((b) => [b.kind, b.kind === 'video' ? b.durationSec : null])).toEqual([
      ['video', 12],
      ['video', 12],
    ]);
    expect(new Set(bgs.map((b) => (b as { path: string }).path)).size).toBe(2);
    expect(probed.length).toBe(2); // each video probed once
  });

  it('both: outputs alternate picture / video', async () => {
    const bgs = await planBackgrounds(req({ count: 4, isPhoto: true, isVideo: true }), [...images, ...videos], probe);
    expect(bgs.map((b) => b.kind)).toEqual(['image', 'video', 'image', 'video']);
  });

  it('both, but the folders hold one kind: that kind for every output', async () => {
    expect(
      (await planBackgrounds(req({ count: 2, isPhoto: true, isVideo: true }), images, probe)).map((b) => b.kind),
    ).toEqual(['image', 'image']);
    expect(
      (await planBackgrounds(req({ count: 2, isPhoto: true, isVideo: true }), videos, probe)).map((b) => b.kind),
    ).toEqual(['video', 'video']);
  });

  it('the same request plans the same backgrounds again (a re-run after a crash renders the same files)', async () => {
    const r = req({ count: 5, isPhoto: true, isVideo: true });
    expect(await planBackgrounds(r, [...images, ...videos], probe)).toEqual(
      await planBackgrounds(r, [...images, ...videos], probe),
    );
  });

  it('a toggle with nothing of its kind in the folders is a permanent failure with a readable reason', async () => {
    const p = planBackgrounds(req({ count: 1, isPhoto: true, isVideo: false }), videos, probe);
    await expect(p).rejects.toBeInstanceOf(PermanentJobError);
    await expect(p).rejects.toThrow(RENDER_ERRORS.noBackgrounds);
  });
});
