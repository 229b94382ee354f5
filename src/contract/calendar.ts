import { z } from 'zod';
import { instantField } from './dates';
import { toId } from './ids';
import { M } from './messages';
import { PLATFORMS, type PlatformKey } from './platforms';
import { NOT_STARTED, PUBLISH_STATES, type PublishState } from './publications';

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

export const CalendarQuery = z
  .object({
    start: instantField().meta({ description: 'From this instant (inclusive)', example: '2026-12-01T00:00:00Z' }),
    end: instantField().meta({ description: 'Up to this instant (exclusive)', example: '2027-01-01T00:00:00Z' }),
    accountId: idFilter.describe('Only this profile'),
    groupId: idFilter.describe("Only this group's profiles"),
    platform: listOf(PLATFORMS),
    state: listOf(PUBLISH_STATES),
  })
  .superRefine((q, ctx) => {
    const span = Date.parse(q.end) - Date.parse(q.start);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['end'], message: CM.rangeReversed });
    else if (span > CALENDAR_RANGE_MAX_DAYS * 24 * 3600 * 1000)
      ctx.addIssue({ code: 'custom', path: ['end'], message: CM.rangeTooLong });
  });
/** The parsed query, as the repository takes it (filters left out mean all). */
export type CalendarParams = {
  start: string;
  end: string;
  accountId?: number;
  groupId?: number;
  platform: PlatformKey[];
  state: PublishState[];
};
/** The calendar's filters as the panel sends them (lists comma-separated; empty means all). */
export type CalendarFilter = { accountId?: number; groupId?: number; platform?: string; state?: string };

/** One post as the calendar draws it. */
export const CalendarPostSchema = z
  .object({
    id: z.number().int().describe('The post (video_publishes row) id'),
    videoId: z.number().int(),
    publicationId: z.number().int(),
    accountId: z.number().int().nullable(),
    profile: z.string().describe("The profile's name as the panel shows it"),
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

export const CalendarMoveSchema = z.object({ at: instantField().describe('The new due instant') });
