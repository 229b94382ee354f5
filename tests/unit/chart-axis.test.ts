import { describe, expect, it } from 'vitest';
import { compactCount, shortDay, valueAxisWidth } from '../../src/analytics/chartAxis';

/**
 * The analytics charts' axes (src/analytics/chartAxis.ts): counts short in the reader's language, days as dates,
 * and a value axis as wide as its longest label (MUI X Charts 8.9 cut a wider one to "0.0…").
 */
describe('chart axes', () => {
  it('counts are short, in the reader’s language', () => {
    expect(compactCount('en')(20_000)).toBe('20K');
    expect(compactCount('en')(1_250_000)).toBe('1.3M');
    expect(compactCount('uk')(20_000).replace(/\s/g, ' ')).toBe('20 тис.');
    expect(compactCount('en')(null)).toBe('');
  });

  it('a day reads as its date and short month', () => {
    expect(shortDay('en')('2026-11-26')).toBe('Nov 26');
    expect(shortDay('uk')('2026-11-26')).toBe('26 лист.');
  });

  it('the value axis has room for its longest label, the next round number included', () => {
    const uk = compactCount('uk');
    // Ticks up to 25 000 read "30 тис." at most: seven characters and the tick.
    expect(valueAxisWidth(25_000, uk)).toBeGreaterThanOrEqual(7 * 7 + 14);
    expect(valueAxisWidth(25_000, uk)).toBeGreaterThan(valueAxisWidth(900, uk));
    // Nothing read: the axis still holds its "0".
    expect(valueAxisWidth(0, uk)).toBeGreaterThan(14);
  });
});
