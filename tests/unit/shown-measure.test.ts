import { shownMeasure } from '../../server/platforms/shown-measure';
import { checkInstagramFile } from '../../server/platforms/instagram/instagram.preflight';

describe('a measure shown next to the limit it broke', () => {
  it('never rounds onto the limit it broke', () => {
    expect(shownMeasure(2.96, { min: 3, max: 900 }, 1)).toBe(2.9);
    expect(shownMeasure(2.999, { min: 3 })).toBe(2.99);
    expect(shownMeasure(900.001, { max: 900 })).toBe(900.01);
    expect(shownMeasure(60.004, { max: 60 })).toBe(60.01);
  });

  it('rounds to the nearest when no limit is broken, and exact values stay exact', () => {
    expect(shownMeasure(29.976, { min: 23, max: 60 })).toBe(29.98);
    expect(shownMeasure(2.96, { min: 1 })).toBe(2.96);
    expect(shownMeasure(2, { min: 3 })).toBe(2);
    expect(shownMeasure(Number.NaN, { min: 3 })).toBe(0);
  });

  it('Instagram names a 2.96 s clip as under 3 s, not as 3 s', () => {
    const facts = {
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      videoCodec: 'h264',
      audioCodec: 'aac',
      durationSec: 2.96,
      sizeBytes: 1_000_000,
      fps: 30,
      width: 1080,
      height: 1920,
    };
    const refusal = checkInstagramFile(facts as any);
    expect(refusal?.key).toBe('instagram_file_duration');
    expect(refusal?.params).toMatchObject({ min: 3, duration: 2.96 });
  });
});
