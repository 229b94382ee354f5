import { fitsBudget, nextSlots, type SlotRule } from '../../server/slots/next-slots';
import { formatInZone, instantOf, isTimeZone, wallOf } from '../../src/contract/time-zones';

const iso = (d: Date[]) => d.map((x) => x.toISOString());
const everyDay: SlotRule = { days: [1, 2, 3, 4, 5, 6, 7], times: ['18:00'], minGapMinutes: 0 };

describe('zone math: wall-clock time ↔ instant', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('Europe/Kyiv')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('+02:00')).toBe(false);
    expect(isTimeZone(3)).toBe(false);
  });

  it('Europe/Kyiv spring gap: 03:30 on the last Sunday of March becomes 04:00 (the first valid minute)', () => {
    expect(instantOf('Europe/Kyiv', { year: 2026, month: 3, day: 29, hour: 3, minute: 30 }).toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(instantOf('Europe/Kyiv', { year: 2026, month: 3, day: 29, hour: 2, minute: 59 }).toISOString()).toBe(
      '2026-03-29T00:59:00.000Z',
    );
  });

  it('Europe/Kyiv autumn overlap: 03:30 on the last Sunday of October is its first occurrence (EEST)', () => {
    expect(instantOf('Europe/Kyiv', { year: 2026, month: 10, day: 25, hour: 3, minute: 30 }).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });

  it('America/New_York: 02:30 on the second Sunday of March is 03:00 EDT; 01:30 on the first Sunday of November is EDT', () => {
    expect(instantOf('America/New_York', { year: 2026, month: 3, day: 8, hour: 2, minute: 30 }).toISOString()).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    expect(instantOf('America/New_York', { year: 2026, month: 11, day: 1, hour: 1, minute: 30 }).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });

  it('reads an instant back as the wall time of its zone, weekday included, with the zone named', () => {
    const w = wallOf('Europe/Kyiv', '2026-03-29T15:00:00.000Z');
    expect(w).toMatchObject({ year: 2026, month: 3, day: 29, hour: 18, minute: 0, weekday: 7 });
    expect(formatInZone('2026-03-29T15:00:00.000Z', 'Europe/Kyiv')).toMatch(/^29\.03\.2026, 18:00 Europe\/Kyiv \(/);
  });
});

describe('next free slots across DST: 18:00 local stays 18:00 local', () => {
  it('Europe/Kyiv, spring (29 March 2026)', () => {
    const slots = nextSlots({
      zone: 'Europe/Kyiv',
      rule: everyDay,
      taken: [],
      after: new Date('2026-03-27T20:00:00Z'),
      count: 3,
    });
    expect(iso(slots)).toEqual(['2026-03-28T16:00:00.000Z', '2026-03-29T15:00:00.000Z', '2026-03-30T15:00:00.000Z']);
    for (const s of slots) expect(wallOf('Europe/Kyiv', s)).toMatchObject({ hour: 18, minute: 0 });
  });

  it('Europe/Kyiv, autumn (25 October 2026)', () => {
    const slots = nextSlots({
      zone: 'Europe/Kyiv',
      rule: everyDay,
      taken: [],
      after: new Date('2026-10-23T20:00:00Z'),
      count: 3,
    });
    expect(iso(slots)).toEqual(['2026-10-24T15:00:00.000Z', '2026-10-25T16:00:00.000Z', '2026-10-26T16:00:00.000Z']);
  });

  it('America/New_York, spring (8 March 2026) and autumn (1 November 2026)', () => {
    const spring = nextSlots({
      zone: 'America/New_York',
      rule: everyDay,
      taken: [],
      after: new Date('2026-03-07T12:00:00Z'),
      count: 2,
    });
    expect(iso(spring)).toEqual(['2026-03-07T23:00:00.000Z', '2026-03-08T22:00:00.000Z']);
    const autumn = nextSlots({
      zone: 'America/New_York',
      rule: everyDay,
      taken: [],
      after: new Date('2026-10-31T12:00:00Z'),
      count: 2,
    });
    expect(iso(autumn)).toEqual(['2026-10-31T22:00:00.000Z', '2026-11-01T23:00:00.000Z']);
    for (const s of [...spring, ...autumn]) expect(wallOf('America/New_York', s).hour).toBe(18);
  });

  it('a slot in the gap moves to the gap end; two slots in an overlap do not fall on one instant', () => {
    const gap = nextSlots({
      zone: 'Europe/Kyiv',
      rule: { days: [7], times: ['03:30'], minGapMinutes: 0 },
      taken: [],
      after: new Date('2026-03-28T00:00:00Z'),
      count: 1,
    });
    expect(iso(gap)).toEqual(['2026-03-29T01:00:00.000Z']);
    const both = nextSlots({
      zone: 'Europe/Kyiv',
      rule: { days: [7], times: ['03:00', '03:30'], minGapMinutes: 0 },
      taken: [],
      after: new Date('2026-03-28T00:00:00Z'),
      count: 2,
    });
    // 03:00 and 03:30 both fall in the gap, at 04:00: one slot that day, the next Sunday's first.
    expect(iso(both)).toEqual(['2026-03-29T01:00:00.000Z', '2026-04-05T00:00:00.000Z']);
  });
});

describe('slot placement', () => {
  const weekdays: SlotRule = { days: [1, 2, 3, 4, 5], times: ['18:00', '09:00'], minGapMinutes: 0 };

  it('Mon–Fri 09:00 and 18:00: skips the weekend and taken slots', () => {
    const slots = nextSlots({
      zone: 'Europe/Kyiv',
      rule: weekdays,
      // Friday 27 November 2026, 10:00 Kyiv; Friday 18:00 already taken.
      taken: [new Date('2026-11-27T16:00:00Z')],
      after: new Date('2026-11-27T08:00:00Z'),
      count: 3,
    });
    expect(iso(slots)).toEqual(['2026-11-30T07:00:00.000Z', '2026-11-30T16:00:00.000Z', '2026-12-01T07:00:00.000Z']);
  });

  it('keeps the minimum gap from every planned post', () => {
    const slots = nextSlots({
      zone: 'UTC',
      rule: { days: [1, 2, 3, 4, 5, 6, 7], times: ['09:00', '10:00', '12:00'], minGapMinutes: 120 },
      taken: [new Date('2026-12-01T08:30:00Z')],
      after: new Date('2026-12-01T00:00:00Z'),
      count: 2,
    });
    // 09:00 and 10:00 are within two hours of 08:30; 12:00 is free; the next day 09:00, then 12:00 (10:00 too close).
    expect(iso(slots)).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-02T09:00:00.000Z']);
  });

  it("TikTok's posts per rolling 24 h: a full window pushes the next post past it", () => {
    const budget = { window: 'rolling-24h' as const, posts: 2 };
    const slots = nextSlots({
      zone: 'UTC',
      rule: { days: [1, 2, 3, 4, 5, 6, 7], times: ['06:00', '12:00', '18:00'], minGapMinutes: 0 },
      budget,
      taken: [],
      after: new Date('2026-12-01T00:00:00Z'),
      count: 4,
    });
    // 06:00 and 12:00; 18:00 would be a third in 24 h; the next day 06:00 and 12:00 are exactly 24 h later (the
    // window is half-open), and 18:00 would again be a third.
    expect(iso(slots)).toEqual([
      '2026-12-01T06:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
      '2026-12-02T06:00:00.000Z',
      '2026-12-02T12:00:00.000Z',
    ]);
  });

  it("YouTube's quota day ends at midnight Pacific time, and units count too", () => {
    const budget = { window: 'pacific-day' as const, posts: 100, units: { perWindow: 3200, perPost: 1600 } };
    const slots = nextSlots({
      zone: 'UTC',
      rule: { days: [1, 2, 3, 4, 5, 6, 7], times: ['01:00', '07:00', '09:00'], minGapMinutes: 0 },
      budget,
      taken: [],
      after: new Date('2026-12-01T00:00:00Z'),
      count: 3,
    });
    // Pacific day 30 Nov runs to 08:00Z on 1 Dec: 01:00 and 07:00 fill it; 09:00 opens the next Pacific day.
    expect(iso(slots)).toEqual(['2026-12-01T01:00:00.000Z', '2026-12-01T07:00:00.000Z', '2026-12-01T09:00:00.000Z']);
    expect(fitsBudget(budget, [Date.parse('2026-12-01T01:00:00Z')], Date.parse('2026-12-01T07:30:00Z'))).toBe(true);
    expect(
      fitsBudget(
        budget,
        [Date.parse('2026-12-01T01:00:00Z'), Date.parse('2026-12-01T02:00:00Z')],
        Date.parse('2026-12-01T07:30:00Z'),
      ),
    ).toBe(false);
  });

  it('gives fewer slots when none are left in the search window', () => {
    const slots = nextSlots({
      zone: 'UTC',
      rule: { days: [1], times: ['10:00'], minGapMinutes: 0 },
      taken: [],
      after: new Date('2026-12-01T00:00:00Z'),
      count: 5,
      searchDays: 14,
    });
    expect(slots).toHaveLength(2);
  });
});
