import { z } from 'zod';
import { encodeMessage } from './stored-message';

/**
 * Every date the contract accepts (issue 17): an RFC 3339 instant with `Z` or an offset, whose instant lies in
 * the years DATE_YEARS.min..DATE_YEARS.max (UTC, both inclusive), answered in the one canonical form
 * `YYYY-MM-DDTHH:mm:ss.sssZ`. `Date.parse` alone is not enough: it accepts `+010000-01-01T00:00:00Z`, which
 * `toISOString()` writes with a sign and which sorts before every real date as text, and it rolls 30 February
 * over into March. zod's ISO check refuses expanded years, leap seconds (`23:59:60`), impossible days and
 * offsets past ±23:59; the range check keeps every stored date four digits long.
 */
export const DATE_YEARS = { min: 2000, max: 2100 } as const;

/** The first and last millisecond a date may name. */
export const DATE_MIN_MS = Date.UTC(DATE_YEARS.min, 0, 1);
export const DATE_MAX_MS = Date.UTC(DATE_YEARS.max + 1, 0, 1) - 1;

/** Validation messages (i18n keys). */
export const DM = {
  invalid: 'kadr.validation.date_invalid',
  outOfRange: 'kadr.validation.date_out_of_range',
} as const;

/** The out-of-range message with its bounds (a stored message: key and parameters). */
export const dateOutOfRange = () => encodeMessage(DM.outOfRange, { min: DATE_YEARS.min, max: DATE_YEARS.max });

/** Whether an instant (epoch ms) is one the contract accepts. */
export const inDateRange = (ms: number) => ms >= DATE_MIN_MS && ms <= DATE_MAX_MS;

/** The one date field of the contract: every date in a request body or query goes through it. */
export const instantField = () =>
  z
    .string({ error: DM.invalid })
    .pipe(z.iso.datetime({ offset: true, error: DM.invalid }))
    .transform((s, ctx) => {
      const ms = Date.parse(s);
      if (!inDateRange(ms)) {
        ctx.addIssue({ code: 'custom', message: dateOutOfRange() });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    })
    .meta({
      description: `An instant with Z or an offset, in the years ${DATE_YEARS.min}–${DATE_YEARS.max}; answered in UTC`,
      example: '2026-12-01T10:00:00.000Z',
    });
