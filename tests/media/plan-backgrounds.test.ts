import type { FolderItemForRender } from '../../server/backgrounds/index';
import { PermanentJobError } from '../../server/jobs/index';
import { planBackgrounds, RENDER_ERRORS } from '../../server/videos/render.worker';

/** Which background each output of a request gets, for every combination of the two background toggles. */
const item = (id: number, type: 'image' | 'video'): FolderItemForRender => ({
  id,
  folderId: 1,
  type,
  key: `${type}-${id}`,
});
/** The picked item's local file (on S3 a download, so each item is asked for once). */
const fetched: string[] = [];
const local = async (key: string) => {
  fetched.push(key);
  return `/media/${key}`;
};
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
    fetched.length = 0;
  });

  it('neither toggle: a blurred copy of the clip for every output, whatever the folders hold', async () => {
    expect(
      await planBackgrounds(req({ count: 3, isPhoto: false, isVideo: false }), [...images, ...videos], probe, local),
    ).toEqual([{ kind: 'blur' }, { kind: 'blur' }, { kind: 'blur' }]);
  });

  it('picture only: pictures, all different while the folders hold enough, never a video', async () => {
    const bgs = await planBackgrounds(
      req({ count: 3, isPhoto: true, isVideo: false }),
      [...images, ...videos],
      probe,
      local,
    );
    expect(bgs.map((b) => b.kind)).toEqual(['image', 'image', 'image']);
    expect(new Set(bgs.map((b) => (b as { path: string }).path)).size).toBe(3);
  });

  it('video only: videos with their probed length (for the seeded start), different while there are enough', async () => {
    const bgs = await planBackgrounds(
      req({ count: 2, isPhoto: false, isVideo: true }),
      [...images, ...videos],
      probe,
      local,
    );
    expect(bgs.map((b) => b.kind)).toEqual(['video', 'video']);
    expect(bgs.map((b) => [b.kind, b.kind === 'video' ? b.durationSec : null])).toEqual([
      ['video', 12],
      ['video', 12],
    ]);
    expect(new Set(bgs.map((b) => (b as { path: string }).path)).size).toBe(2);
    expect(probed.length).toBe(2); // each video probed once
  });

  it('fetches the file of each picked item once, and of no other item', async () => {
    const bgs = await planBackgrounds(
      req({ count: 7, isPhoto: true, isVideo: false }),
      [...images, ...videos],
      probe,
      local,
    );
    expect(bgs).toHaveLength(7);
    expect([...fetched].sort()).toEqual(['image-1', 'image-2', 'image-3']);
    fetched.length = 0;
    await planBackgrounds(req({ count: 1, isPhoto: false, isVideo: true }), [...images, ...videos], probe, local);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatch(/^video-/);
  });

  it('both: outputs alternate picture / video', async () => {
    const bgs = await planBackgrounds(
      req({ count: 4, isPhoto: true, isVideo: true }),
      [...images, ...videos],
      probe,
      local,
    );
    expect(bgs.map((b) => b.kind)).toEqual(['image', 'video', 'image', 'video']);
  });

  it('both, but the folders hold one kind: that kind for every output', async () => {
    expect(
      (await planBackgrounds(req({ count: 2, isPhoto: true, isVideo: true }), images, probe, local)).map((b) => b.kind),
    ).toEqual(['image', 'image']);
    expect(
      (await planBackgrounds(req({ count: 2, isPhoto: true, isVideo: true }), videos, probe, local)).map((b) => b.kind),
    ).toEqual(['video', 'video']);
  });

  it('the same request plans the same backgrounds again (a re-run after a crash renders the same files)', async () => {
    const r = req({ count: 5, isPhoto: true, isVideo: true });
    expect(await planBackgrounds(r, [...images, ...videos], probe, local)).toEqual(
      await planBackgrounds(r, [...images, ...videos], probe, local),
    );
  });

  it('a toggle with nothing of its kind in the folders is a permanent failure with a readable reason', async () => {
    const p = planBackgrounds(req({ count: 1, isPhoto: true, isVideo: false }), videos, probe, local);
    await expect(p).rejects.toBeInstanceOf(PermanentJobError);
    await expect(p).rejects.toThrow(RENDER_ERRORS.noBackgrounds);
  });
});
