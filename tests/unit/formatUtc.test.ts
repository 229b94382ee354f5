// A zone far from UTC, so a formatter that printed local time would fail.
process.env.TZ = 'America/New_York';

import { formatUtc } from '../../src/common/formatUtc';

describe('formatUtc', () => {
  it('prints UTC as DD.MM.YYYY, HH:MM:SS whatever the local zone', () => {
    expect(formatUtc('2026-03-07T05:04:09.123Z')).toBe('07.03.2026, 05:04:09');
    expect(formatUtc('2026-12-31T23:59:59+02:00')).toBe('31.12.2026, 21:59:59');
    expect(formatUtc(Date.UTC(2024, 1, 29, 0, 0, 0))).toBe('29.02.2024, 00:00:00');
  });
  it('stays on the UTC wall clock across daylight-saving changes of the local zone', () => {
    // New York springs forward on 2026-03-08 at 07:00Z and falls back on 2026-11-01 at 06:00Z.
    expect(formatUtc('2026-03-08T06:30:00Z')).toBe('08.03.2026, 06:30:00');
    expect(formatUtc('2026-03-08T07:30:00Z')).toBe('08.03.2026, 07:30:00');
    expect(formatUtc('2026-11-01T05:30:00Z')).toBe('01.11.2026, 05:30:00');
    expect(formatUtc('2026-11-01T06:30:00Z')).toBe('01.11.2026, 06:30:00');
  });
  it("writes another language's date its own way, still in UTC", () => {
    expect(formatUtc('2026-11-26T07:59:38Z', 'en')).toBe('Nov 26, 2026, 07:59:38');
    expect(formatUtc('2026-03-08T00:04:09Z', 'en')).toBe('Mar 8, 2026, 00:04:09');
    expect(formatUtc('2026-11-26T07:59:38Z', 'uk')).toBe('26.11.2026, 07:59:38');
    expect(formatUtc('not a date', 'en')).toBe('');
  });
  it('prints nothing for empty or invalid input', () => {
    expect(formatUtc(null)).toBe('');
    expect(formatUtc('')).toBe('');
    expect(formatUtc('not a date')).toBe('');
  });
});
