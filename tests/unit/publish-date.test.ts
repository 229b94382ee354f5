// A zone far from UTC, so a parser that read local time would fail.
process.env.TZ = 'Pacific/Auckland';

import { parseUtc, showUtc } from '../../src/publications/utcInput';

/** The publish form's date: typed and shown in UTC as DD.MM.YYYY, HH:MM:SS (SPEC §9). */
describe('publish date in UTC', () => {
  it('reads what a person types as a UTC instant, with or without seconds', () => {
    expect(parseUtc('01.03.2031, 10:30:15')).toBe('2031-03-01T10:30:15.000Z');
    expect(parseUtc(' 1.3.2031 9:05 ')).toBe('2031-03-01T09:05:00.000Z');
  });

  it('refuses dates that do not exist and other text', () => {
    for (const bad of [
      '31.02.2031, 10:00:00',
      '01.13.2031, 10:00',
      '01.03.2031, 24:00',
      '2031-03-01T10:00:00Z',
      '',
      'завтра',
    ]) {
      expect(parseUtc(bad)).toBeNull();
    }
  });

  it('shows an instant the way it is typed, and nothing for text that is not one', () => {
    expect(showUtc('2031-03-29T01:30:00.000Z')).toBe('29.03.2031, 01:30:00');
    expect(parseUtc(showUtc('2031-10-26T00:59:59.000Z'))).toBe('2031-10-26T00:59:59.000Z');
    expect(showUtc('12')).toBe('');
    expect(showUtc(null)).toBe('');
  });
});
