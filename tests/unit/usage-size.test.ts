import { usageSize } from '../../src/media/usageSize';

/** A user's media size: '—' while nothing is measured, '≥' while part is, 0 only when known to be nothing. */
describe('media usage size', () => {
  const translate = (key: string, args?: Record<string, string>) =>
    ({
      'kadr.media.not_measured': '—',
      'kadr.media.at_least': `≥ ${args?.size}`,
      'kadr.media.megabytes': `${args?.value} MB`,
      'kadr.media.gigabytes': `${args?.value} GB`,
    })[key] ?? key;

  it('names media never measured with a dash, not 0', () => {
    expect(usageSize({ bytes: 0, files: 8, unmeasured: 8 }, translate)).toBe('—');
  });

  it('says 0 only when it is known: no files, or files measured as empty', () => {
    expect(usageSize({ bytes: 0, files: 0, unmeasured: 0 }, translate)).toBe('0.0 MB');
    expect(usageSize({ bytes: 0, files: 2, unmeasured: 0 }, translate)).toBe('0.0 MB');
  });

  it('gives what is measured as a lower bound while some files are not', () => {
    expect(usageSize({ bytes: 3 * 1024 ** 2, files: 5, unmeasured: 2 }, translate)).toBe('≥ 3.0 MB');
    expect(usageSize({ bytes: 3 * 1024 ** 3, files: 5, unmeasured: 0 }, translate)).toBe('3.00 GB');
  });
});
