// A zone far from UTC, so a formatter that printed local time would fail.
process.env.TZ = 'America/New_York';

import { formatUtc } from '../../src/common/formatUtc';

describe('formatUtc', () => {
  it('prints UTC as DD.MM.YYYY, HH:MM:SS whatever the local zone', () => {
    expect(formatUtc('2026-03-07T05:04:09.123Z')).toBe('07.03.2026, 05:04:09');
    expect(formatUtc('2026-12-31T23:59:59+02:00')).toBe('31.12.2026, 21:59:59');
    expect(formatUtc(Date.UTC(2024, 1, 29, 0, 0, 0))).toBe('29.02.2024, 00:00:00');
  });
  it('prints nothing for empty or invalid input', () => {
    expect(formatUtc(null)).toBe('');
    expect(formatUtc('')).toBe('');
    expect(formatUtc('not a date')).toBe('');
  });
});
