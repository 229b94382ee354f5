import { formatInZone, zoneLabel } from '../../src/contract/time-zones';

/**
 * How a zone is named beside a date (calendar, publish form): its IANA name and its short name, but a zone whose
 * short name is its name once ('UTC', not 'UTC (UTC)').
 */
describe('zone labels', () => {
  const summer = '2026-07-01T12:00:00.000Z';

  it('names UTC once, in either language', () => {
    expect(zoneLabel('UTC', summer)).toBe('UTC');
    expect(zoneLabel('UTC', summer, 'uk')).toBe('UTC');
    expect(formatInZone(summer, 'UTC')).toBe('01.07.2026, 12:00 UTC');
  });

  it('names a zone with its short name when they differ', () => {
    expect(zoneLabel('Europe/Kyiv', summer)).toMatch(/^Europe\/Kyiv \((EEST|GMT\+3)\)$/);
    expect(zoneLabel('Etc/UTC', summer)).toBe('Etc/UTC (UTC)');
    expect(formatInZone(summer, 'Europe/Kyiv')).toMatch(/^01\.07\.2026, 15:00 Europe\/Kyiv \(/);
  });
});
