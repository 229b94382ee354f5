import { z } from 'zod';
import { CALENDAR_RANGE_MAX_DAYS, CM } from './calendar';
import { instantField } from './dates';
import { PLATFORMS } from './platforms';

/**
 * Posting slots (issue 21 item 3): per profile and platform, weekly times local to the profile's zone ("Mon–Fri
 * 09:00 and 18:00") and a minimum gap between its posts; "add to queue" places posts in the next free slots
 * that fit the platform's budget for the profile. The capacity view says, per profile and day, how much of each
 * budget is planned.
 */

/** Validation and refusal messages (i18n keys). */
export const SM = {
  noDays: 'kadr.slots.errors.no_days',
  noTimes: 'kadr.slots.errors.no_times',
  badTime: 'kadr.slots.errors.bad_time',
  noSlots: 'kadr.slots.errors.no_slots',
  noFreeSlot: 'kadr.slots.errors.no_free_slot',
  notQueueable: 'kadr.slots.errors.not_queueable',
  queueNotForAi: 'kadr.slots.errors.queue_not_for_ai',
} as const;

/** Weekdays: 1 Monday … 7 Sunday (ISO). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const SLOT_TIMES_MAX = 24;
/** The longest minimum gap: a day. */
export const MIN_GAP_MAX = 24 * 60;
/** How far ahead the queue looks for a free slot. */
export const QUEUE_SEARCH_DAYS = 60;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const SlotsInputSchema = z.object({
  days: z
    .array(z.number().int().min(1).max(7))
    .max(7)
    .refine((d) => d.length > 0, SM.noDays)
    .describe('Weekdays, 1 Monday … 7 Sunday'),
  times: z
    .array(z.string().regex(HHMM, SM.badTime))
    .max(SLOT_TIMES_MAX)
    .refine((t) => t.length > 0, SM.noTimes)
    .describe("Local times 'HH:MM' in the profile's zone"),
  minGapMinutes: z.number().int().min(0).max(MIN_GAP_MAX).default(0),
});
export type SlotsInput = z.input<typeof SlotsInputSchema>;

export const SlotsSchema = z
  .object({
    accountId: z.number().int(),
    platform: z.enum(PLATFORMS),
    days: z.array(z.number().int()),
    times: z.array(z.string()),
    minGapMinutes: z.number().int(),
  })
  .meta({ id: 'PostingSlots' });
export type Slots = z.infer<typeof SlotsSchema>;

/** GET /api/slots/:accountId: the profile's zone and its slots per platform. */
export const ProfileSlotsSchema = z
  .object({ accountId: z.number().int(), timeZone: z.string(), slots: z.array(SlotsSchema) })
  .meta({ id: 'ProfileSlots' });
export type ProfileSlots = z.infer<typeof ProfileSlotsSchema>;

export const SlotParams = z.object({
  accountId: z.coerce.number().int().positive(),
  platform: z.enum(PLATFORMS),
});
export const AccountParams = z.object({ accountId: z.coerce.number().int().positive() });

/** POST /api/slots/queue: posts (video_publishes ids) that have not started going out, each to its next slot. */
export const QueueSchema = z.object({ posts: z.array(z.number().int().positive()).min(1).max(1000) });
export const QueuedSchema = z
  .object({ data: z.array(z.object({ id: z.number().int(), dueAt: z.string() })) })
  .meta({ id: 'Queued' });
export type Queued = z.infer<typeof QueuedSchema>;

/** GET /api/slots/capacity?start&end[&accountId]: per profile, local day and platform, the planned budget. */
export const CapacityQuery = z
  .object({
    start: instantField(),
    end: instantField(),
    accountId: z.coerce.number().int().positive().optional(),
  })
  .superRefine((q, ctx) => {
    const span = Date.parse(q.end) - Date.parse(q.start);
    if (span <= 0 || span > CALENDAR_RANGE_MAX_DAYS * 24 * 3600 * 1000)
      ctx.addIssue({ code: 'custom', path: ['end'], message: CM.rangeTooLong });
  });
export const CapacityDaySchema = z.object({
  accountId: z.number().int(),
  timeZone: z.string(),
  day: z.string().describe("YYYY-MM-DD in the profile's zone"),
  platform: z.enum(PLATFORMS),
  posts: z.number().int().describe('Posts planned (scheduled, on their way or published) that day'),
  postsLimit: z.number().int().describe('The platform’s posts per window for one profile'),
  units: z.number().int().describe('API units they spend (YouTube); 0 elsewhere'),
  unitsLimit: z.number().int(),
  over: z.boolean().describe('More planned than the budget allows'),
});
export type CapacityDay = z.infer<typeof CapacityDaySchema>;
export const CapacitySchema = z.object({ data: z.array(CapacityDaySchema) }).meta({ id: 'Capacity' });
export type Capacity = z.infer<typeof CapacitySchema>;

/**
 * GET /api/slots/over-days?start&end[&accountId] (the capacity query): only the days the capacity answer marks
 * over (any profile, any platform), what the calendar shades. A month of an admin's posts is ~300 KB of capacity
 * and a few hundred bytes of this.
 */
export const OverDaysSchema = z
  .object({
    days: z
      .array(z.string())
      .describe("'YYYY-MM-DD' (each profile's zone) with a day over budget, ascending, once each"),
  })
  .meta({ id: 'OverDays' });
export type OverDays = z.infer<typeof OverDaysSchema>;
