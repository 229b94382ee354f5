import { z } from 'zod';
import { instantField } from './dates';
import { toId } from './ids';
import { M } from './messages';
import { PLATFORMS, type PlatformKey } from './platforms';
import { NOT_STARTED, PUBLISH_STATES, type PublishState } from './publications';
import { DEFAULT_TIME_ZONE, isTimeZone, TZM } from './time-zones';

/**
 * The calendar (issue 21 item 1): every post (one `video_publishes` row, video × profile × platform) due in a
 * time range, with its state, and a scheduled post moved to another time by dragging it.
 */

/** Validation and refusal messages (i18n keys). */
export const CM = {
  rangeTooLong: 'kadr.calendar.errors.range_too_long',
  rangeReversed: 'kadr.calendar.errors.range_reversed',
  inThePast: 'kadr.calendar.errors.in_the_past',
  notMovable: 'kadr.calendar.errors.not_movable',
  overBudget: 'kadr.calendar.errors.over_budget',
  invalidList: 'kadr.calendar.errors.invalid_list',
} as const;

/** The longest range one request may ask for (a month view shows six weeks; the list view a month). */
export const CALENDAR_RANGE_MAX_DAYS = 62;
/** At most this many posts in one answer (`truncated` says when more are due in the range). */
export const CALENDAR_POSTS_MAX = 10_000;
/**
 * The posts a month view draws in one day before "+N more" (a day's answer carries these first ones and counts
 * the rest; the popover asks for the day's full list).
 */
export const CALENDAR_DAY_POSTS = 4;

/**
 * The states a post may be moved in: it has not started going out (one awaiting approval too: the move drops its
 * approval, if any, and the publish worker asks again).
 */
export const MOVABLE: readonly PublishState[] = [...NOT_STARTED, 'awaiting_approval'];
export const isMovable = (state: string) => MOVABLE.includes(state as PublishState);

/** `?platform=youtube,tiktok`: a comma-separated list of allowed values; empty means all. */
const listOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const items = (raw ?? '').split(',').filter(Boolean);
      if (items.every((v) => (values as readonly string[]).includes(v))) return items as T[number][];
      ctx.addIssue({ code: 'custom', message: CM.invalidList });
      return z.NEVER;
    })
    .meta({ description: `Comma-separated: ${values.join(', ')}`, example: values[0] });

const idFilter = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return undefined;
    const id = toId(raw);
    if (id < 1) ctx.addIssue({ code: 'custom', message: M.invalidId });
    return id;
  })
  .meta({ example: '12' });

/** The range and filters both calendar answers take. */
const calendarFilters = {
  start: instantField().meta({ description: 'From this instant (inclusive)', example: '2026-12-01T00:00:00Z' }),
  end: instantField().meta({ description: 'Up to this instant (exclusive)', example: '2027-01-01T00:00:00Z' }),
  accountId: idFilter.describe('Only this profile'),
  groupId: idFilter.describe("Only this group's profiles"),
  platform: listOf(PLATFORMS),
  state: listOf(PUBLISH_STATES),
};
const rangeChecked = (q: { start: string; end: string }, ctx: z.RefinementCtx) => {
  const span = Date.parse(q.end) - Date.parse(q.start);
  if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end'], message: CM.rangeReversed });
  else if (span > CALENDAR_RANGE_MAX_DAYS * 24 * 3600 * 1000)
    ctx.addIssue({ code: 'custom', path: ['end'], message: CM.rangeTooLong });
};

export const CalendarQuery = z
  .object({
    ...calendarFilters,
    drawnStart: instantField()
      .optional()
      .describe('Only posts drawn (published, else due) from this instant on: one day of the month view'),
    drawnEnd: instantField().optional().describe('…and before this one'),
  })
  .superRefine(rangeChecked);

/** GET /api/calendar/days: the month view's answer, its days cut in `zone` (IANA; default UTC). */
export const CalendarDaysQuery = z
  .object({
    ...calendarFilters,
    zone: z
      .string()
      .optional()
      .refine((z) => z === undefined || isTimeZone(z), { message: TZM.invalid })
      .transform((z) => z ?? DEFAULT_TIME_ZONE)
      .meta({ description: 'The IANA time zone whose days the month is cut into', example: 'Europe/Kyiv' }),
  })
  .superRefine(rangeChecked);

/** The parsed query, as the repository takes it (filters left out mean all). */
export type CalendarParams = {
  start: string;
  end: string;
  accountId?: number;
  groupId?: number;
  platform: PlatformKey[];
  state: PublishState[];
  /** Only posts drawn (published, else due) in [drawnStart, drawnEnd). */
  drawnStart?: string | undefined;
  drawnEnd?: string | undefined;
};
/** The calendar's filters as the panel sends them (lists comma-separated; empty means all). */
export type CalendarFilter = { accountId?: number; groupId?: number; platform?: string; state?: string };
/** One day of the month view asked for its full list: the month's range, and the day's own. */
export type CalendarDayFilter = { drawnStart?: string; drawnEnd?: string };

/** One post as the calendar draws it. */
export const CalendarPostSchema = z
  .object({
    id: z.number().int().describe('The post (video_publishes row) id'),
    videoId: z.number().int(),
    publicationId: z.number().int(),
    accountId: z.number().int().nullable(),
    profile: z.string().describe("The profile's name as the panel shows it"),
    profileLabel: z
      .string()
      .describe("The profile's short name, its id and the operator's name for it ('#3 · основний'; '' without one)"),
    platform: z.enum(PLATFORMS),
    state: z.enum(PUBLISH_STATES),
    dueAt: z.string().describe('When it is due (UTC instant)'),
    publishedAt: z.string().nullable().describe('When it went public'),
    title: z.string(),
    repeatOf: z
      .number()
      .int()
      .describe(
        'The live post of the same file, profile and platform this one repeats (allowed by the operator); 0: none',
      ),
  })
  .meta({ id: 'CalendarPost' });
export type CalendarPost = z.infer<typeof CalendarPostSchema>;

export const CalendarAnswerSchema = z
  .object({ data: z.array(CalendarPostSchema), truncated: z.boolean() })
  .meta({ id: 'CalendarPosts' });
export type CalendarAnswer = z.infer<typeof CalendarAnswerSchema>;

/**
 * One day of the month view (a day in the asked zone, with posts drawn in it): its first CALENDAR_DAY_POSTS posts in
 * the order the calendar draws them (by the instant drawn, then id), and how many it has in all.
 */
export const CalendarDaySchema = z
  .object({
    day: z.string().describe("The day, 'YYYY-MM-DD' in the asked zone"),
    start: z.string().describe("The day's first instant (within the range)"),
    end: z.string().describe('The instant after its last one (within the range)'),
    count: z.number().int().describe('Posts drawn in this day, all of them'),
    posts: z.array(CalendarPostSchema).describe('Its first posts, as drawn'),
  })
  .meta({ id: 'CalendarDay' });
export type CalendarDay = z.infer<typeof CalendarDaySchema>;

export const CalendarDaysAnswerSchema = z
  .object({ zone: z.string(), days: z.array(CalendarDaySchema).describe('Days with posts, in order') })
  .meta({ id: 'CalendarDays' });
export type CalendarDaysAnswer = z.infer<typeof CalendarDaysAnswerSchema>;
export type CalendarDaysParams = CalendarParams & { zone: string };

export const CalendarMoveSchema = z.object({ at: instantField().describe('The new due instant') });
