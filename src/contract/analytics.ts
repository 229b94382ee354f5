import { z } from 'zod';
import { PLATFORMS } from './platforms';

/**
 * Analytics (issue 22): the stats history as series a chart draws and a table lists. Every number is a sum of
 * daily increments (server/analytics: post_stat_days, profile_stat_days, user_stat_days), never of the platforms'
 * lifetime counters; days are `YYYY-MM-DD` (UTC for now). A user sees their own posts' stats, an admin everyone's.
 */

/** The dashboard's periods, in days. */
export const ANALYTICS_PERIODS = ['7', '30', '90'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/** Validation messages (i18n keys). */
export const AM = { invalidPeriod: 'kadr.analytics.errors.invalid_period' } as const;

/** The counters every series carries. */
export const STAT_METRICS = ['views', 'likes', 'comments', 'shares', 'saves'] as const;
export type StatMetric = (typeof STAT_METRICS)[number];

export const PeriodQuery = z.object({
  days: z
    .enum(ANALYTICS_PERIODS, { error: AM.invalidPeriod })
    .default('30')
    .meta({ description: 'The period: the last 7, 30 or 90 days (today included)', example: '30' }),
});

const count = z.number().int();
export const StatCountsSchema = z
  .object({ views: count, likes: count, comments: count, shares: count, saves: count })
  .meta({ id: 'StatCounts' });
export type StatCounts = z.infer<typeof StatCountsSchema>;

/** One day of one platform: what the counters grew by that day. */
export const DayPointSchema = StatCountsSchema.extend({
  day: z.string().describe('YYYY-MM-DD'),
  platform: z.enum(PLATFORMS),
}).meta({ id: 'StatDay' });
export type DayPoint = z.infer<typeof DayPointSchema>;

export const PlatformTotalSchema = StatCountsSchema.extend({ platform: z.enum(PLATFORMS) }).meta({
  id: 'StatPlatformTotal',
});

export const TopVideoSchema = StatCountsSchema.extend({
  videoId: z.number().int(),
  publicationId: z.number().int().nullable(),
  title: z.string(),
}).meta({ id: 'StatTopVideo' });
export type TopVideo = z.infer<typeof TopVideoSchema>;

export const TopProfileSchema = StatCountsSchema.extend({
  accountId: z.number().int(),
  profile: z.string(),
}).meta({ id: 'StatTopProfile' });
export type TopProfile = z.infer<typeof TopProfileSchema>;

export const DashboardSchema = z
  .object({
    from: z.string().describe('First day of the period (YYYY-MM-DD)'),
    to: z.string().describe('Last day of the period (today; across profiles, the latest today among their time zones)'),
    totals: StatCountsSchema.describe('Growth over the period'),
    previous: StatCountsSchema.describe('Growth over the period before it (same length), for the change'),
    byPlatform: z.array(PlatformTotalSchema),
    series: z.array(DayPointSchema).describe('Per day and platform, every day of the period'),
    topVideos: z.array(TopVideoSchema),
    topProfiles: z.array(TopProfileSchema),
  })
  .meta({ id: 'StatsDashboard' });
export type Dashboard = z.infer<typeof DashboardSchema>;

/** A publication's or a profile's curve: per day and platform, the day's growth and the running total. */
export const CurvePointSchema = DayPointSchema.extend({
  viewsTotal: count.describe('Views up to the end of the day'),
}).meta({ id: 'StatCurvePoint' });
export type CurvePoint = z.infer<typeof CurvePointSchema>;

export const CurveSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    zone: z
      .string()
      .optional()
      .describe("A profile's curve: the time zone its days are in (the profile's; UTC for one without)"),
    series: z.array(CurvePointSchema),
  })
  .meta({ id: 'StatCurve' });
export type Curve = z.infer<typeof CurveSchema>;

/** A render output's variation (server/media/render/variation.ts), null when the generator was off. */
export const VariationSchema = z
  .object({
    zoom: z.number(),
    dx: z.number(),
    dy: z.number(),
    brightness: z.number(),
    contrast: z.number(),
    saturation: z.number(),
    speed: z.number(),
    trimStartSec: z.number(),
  })
  .meta({ id: 'OutputVariation' });
export type Variation = z.infer<typeof VariationSchema>;

export const BACKGROUND_KINDS = ['photo', 'video', 'blur'] as const;

export const VariantPostSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    accountId: z.number().int().nullable(),
    profile: z.string(),
    publishedAt: z.string().nullable(),
    views: count.describe('Latest views'),
    likes: count,
    comments: count,
    views24h: count.nullable().describe('Views 24 h after it went public (null: not that old yet, or not read)'),
    views7d: count.nullable().describe('Views 7 days after it went public'),
  })
  .meta({ id: 'VariantPost' });
export type VariantPost = z.infer<typeof VariantPostSchema>;

export const VariantSchema = z
  .object({
    videoId: z.number().int(),
    index: z.number().int().describe('The output index, from 0'),
    title: z.string(),
    background: z.enum(BACKGROUND_KINDS),
    variation: VariationSchema.nullable(),
    posts: z.array(VariantPostSchema),
    views: count,
    likes: count,
    comments: count,
    views24h: count.nullable().describe('Mean views at 24 h over its posts that are that old'),
    views7d: count.nullable().describe('Mean views at 7 days over its posts that are that old'),
  })
  .meta({ id: 'RenderVariant' });
export type Variant = z.infer<typeof VariantSchema>;

export const VariantsSchema = z
  .object({ requestId: z.number().int(), variants: z.array(VariantSchema) })
  .meta({ id: 'RenderVariants' });
export type Variants = z.infer<typeof VariantsSchema>;
