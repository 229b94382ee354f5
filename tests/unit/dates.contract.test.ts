import fc from 'fast-check';
import { DATE_MAX_MS, DATE_MIN_MS, DM, inDateRange, instantField } from '../../src/contract/dates';
import { PublicationCreateSchema, publicationCreateSchema } from '../../src/contract/publications';

const field = instantField();
const parse = (s: unknown) => field.safeParse(s);
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A year as ISO 8601 writes it: four digits, or a sign and six (expanded years). */
const isoYear = (y: number) => (y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? '-' : '+'}${pad(Math.abs(y), 6)}`);

/** The instant (epoch ms) of written fields; NaN when the day does not exist or JS dates cannot hold it. */
function instantOf(p: { y: number; mo: number; d: number; h: number; mi: number; s: number; ms: number; off: number }) {
  if (p.s > 59) return NaN;
  const date = new Date(0);
  date.setUTCFullYear(p.y, p.mo - 1, p.d); // not Date.UTC: it reads years 0–99 as 1900–1999
  date.setUTCHours(p.h, p.mi, p.s, p.ms);
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== p.d || date.getUTCMonth() !== p.mo - 1) return NaN;
  return date.getTime() - p.off * 60_000;
}

/** Written date-times across years -300000..300000 (beyond what a JS Date holds), any day 1–31, second 0–60. */
const writtenDate = fc.record({
  y: fc.oneof(fc.integer({ min: -300_000, max: 300_000 }), fc.integer({ min: 1990, max: 2110 })),
  mo: fc.integer({ min: 1, max: 12 }),
  d: fc.integer({ min: 1, max: 31 }),
  h: fc.integer({ min: 0, max: 23 }),
  mi: fc.integer({ min: 0, max: 59 }),
  s: fc.integer({ min: 0, max: 60 }),
  ms: fc.integer({ min: 0, max: 999 }),
  off: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
  z: fc.boolean(),
});

describe('contract dates: instants in the years 2000–2100 only, answered canonically', () => {
  it('refuses expanded years, leap seconds, impossible days and text Date.parse reads', () => {
    for (const bad of [
      '+010000-01-01T00:00:00Z',
      '+002030-01-01T00:00:00.000Z',
      '-000001-01-01T00:00:00Z',
      '2100-12-31T23:59:60Z',
      '2030-02-30T10:00:00Z',
      '2030-01-01T24:00:00Z',
      '2030-01-01T10:00:00+24:00',
      '2030-01-01T10:00:00', // no zone
      '2030-01-01',
      'Tue, 01 Jan 2030 10:00:00 GMT',
      '2030 z',
      '',
      12,
      null,
    ]) {
      const r = parse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(DM.invalid);
    }
    for (const outside of [
      '1999-12-31T23:59:59.999Z',
      '2101-01-01T00:00:00Z',
      '2000-01-01T00:30:00+01:00', // 1999 in UTC
      '9999-12-31T23:59:59Z',
    ]) {
      const r = parse(outside);
      expect(r.success, outside).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('kadr.validation.date_out_of_range {"min":2000,"max":2100}');
    }
    expect(parse('2000-01-01T00:00:00Z').data).toBe('2000-01-01T00:00:00.000Z');
    expect(parse('2100-12-31T23:59:59.999Z').data).toBe('2100-12-31T23:59:59.999Z');
    expect(parse('2101-01-01T01:00:00+02:00').data).toBe('2100-12-31T23:00:00.000Z');
    expect(parse('2030-03-30T12:00:00.1234567+03:00').data).toBe('2030-03-30T09:00:00.123Z');
  });

  it('over arbitrary strings: whatever parses is an instant in range, canonical, and parses to itself', () => {
    const isoLike = fc.stringMatching(
      /^[+-]?\d{4,6}-\d\d-\d\d[Tt ]\d\d:\d\d(:\d\d(\.\d{1,9})?)?([zZ]|[+-]\d\d:?\d\d)?$/,
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), isoLike), (s) => {
        const r = parse(s);
        if (!r.success) return;
        expect(r.data).toMatch(CANONICAL);
        expect(inDateRange(Date.parse(r.data))).toBe(true);
        expect(Date.parse(r.data)).toBe(Date.parse(s));
        expect(parse(r.data).data).toBe(r.data);
      }),
      { numRuns: 3000 },
    );
  });

  it('over written dates of years -300000..300000: parses iff the instant is in 2000–2100', () => {
    fc.assert(
      fc.property(writtenDate, (p) => {
        const zone =
          p.z && p.off === 0
            ? 'Z'
            : `${p.off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(p.off) / 60))}:${pad(Math.abs(p.off) % 60)}`;
        const text = `${isoYear(p.y)}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}.${pad(p.ms, 3)}${zone}`;
        const at = instantOf(p);
        const ok = !Number.isNaN(at) && at >= DATE_MIN_MS && at <= DATE_MAX_MS;
        const r = parse(text);
        expect(r.success, text).toBe(ok);
        if (ok) {
          expect(r.data).toBe(new Date(at).toISOString());
          expect(parse(r.data).data).toBe(r.data);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('over every instant a JS date holds: its toISOString parses iff it is in range, and comes back unchanged', () => {
    const anyInstant = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: DATE_MIN_MS - 1e11, max: DATE_MAX_MS + 1e11 }),
      fc.constantFrom(DATE_MIN_MS - 1, DATE_MIN_MS, DATE_MAX_MS, DATE_MAX_MS + 1),
    );
    fc.assert(
      fc.property(anyInstant, (ms) => {
        const text = new Date(ms).toISOString();
        const r = parse(text);
        expect(r.success, text).toBe(inDateRange(ms));
        if (r.success) expect(r.data).toBe(text);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('publication dates: the scheduling horizon', () => {
  const now = Date.parse('2026-11-25T12:00:00.000Z');
  const day = 24 * 3600 * 1000;
  const iso = (ms: number) => new Date(ms).toISOString();
  const publication = (date: string, videoDates: string[]) => ({
    title: 't',
    tags: ['a'],
    accounts: [1],
    inYouTube: true,
    date,
    video: videoDates.map((d, i) => ({ id: i + 1, title: 't', tags: ['a'], account: 1, date: d })),
  });
  const errors = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

  it('names each date past the horizon, and lets the past and the horizon itself through', () => {
    const body = publication(iso(now + 365 * day), [
      iso(now + 365 * day + 1),
      iso(now - 400 * day),
      iso(now + 366 * day),
    ]);
    const at = (days: number) => publicationCreateSchema({ days, now: () => now }).safeParse(body);
    expect(errors(at(365))).toEqual({
      'video.0.date': 'kadr.publications.errors.beyond_horizon {"days":365}',
      'video.2.date': 'kadr.publications.errors.beyond_horizon {"days":365}',
    });
    expect(at(400).success).toBe(true);
    // Without a horizon (the API docs' schema) only the years count.
    expect(PublicationCreateSchema.safeParse(body).success).toBe(true);
  });

  it('the publish body refuses a date outside the years through its shared field and each video, naming them', () => {
    const r = publicationCreateSchema({ days: 365, now: () => now }).safeParse(
      publication('+010000-01-01T00:00:00Z', ['2101-01-01T00:00:00Z']),
    );
    expect(errors(r)).toEqual({
      date: DM.invalid,
      'video.0.date': 'kadr.validation.date_out_of_range {"min":2000,"max":2100}',
    });
  });
});
