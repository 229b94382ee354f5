import {
  STAT_METRICS,
  type AnalyticsPeriod,
  type Curve,
  type CurvePoint,
  type Dashboard,
  type DayPoint,
  type StatCounts,
  type Variant,
  type VariantPost,
  type Variants,
} from '../../src/contract/analytics';
import type { AuthUser } from '../../src/contract/auth';
import { PLATFORMS, type PlatformKey } from '../../src/contract/platforms';
import { profileHandles, profileText } from '../../src/contract/profile-identity';
import { ownerScope } from '../auth/guards';
import { notFound } from '../http/errors';
import { makeVariation } from '../media/render/variation';
import { seedOf } from '../videos/render.worker';
import type { AnalyticsRepository } from './analytics.repository';
import { dayBefore, daysBetween, latestDay, profileZone, statDay } from './stat-day';

const TOP = 10;
const HOUR_MS = 3600_000;

const counts = (r: Partial<Record<string, unknown>> | undefined): StatCounts =>
  Object.fromEntries(STAT_METRICS.map((k) => [k, Number(r?.[k] ?? 0)])) as StatCounts;
const add = (a: StatCounts, b: StatCounts): StatCounts =>
  Object.fromEntries(STAT_METRICS.map((k) => [k, a[k] + b[k]])) as StatCounts;
const ZERO = counts(undefined);

type ProfileCols = {
  profileComments: string | null;
  titleChannel: string | null;
  titleTikTok: string | null;
  profileNameInstagram: string | null;
};
const profileName = (id: number, r: ProfileCols) =>
  profileText({ id, comments: r.profileComments, handles: profileHandles(r) });

/** Every day × platform of a range, zeros where nothing grew (a chart's axis has no holes). */
function fillDays(from: string, to: string, rows: ({ day: string; platform: string } & Record<string, unknown>)[]) {
  const at = new Map(rows.map((r) => [`${r.day}|${r.platform}`, r]));
  return daysBetween(from, to).flatMap((day) =>
    PLATFORMS.map((platform) => ({ day, platform, ...counts(at.get(`${day}|${platform}`)) })),
  );
}

/** Running view totals per platform over filled days, starting from `start`. */
function withTotals(points: DayPoint[], start: Partial<Record<PlatformKey, number>> = {}): CurvePoint[] {
  const run = { ...start } as Record<string, number>;
  return points.map((p) => {
    run[p.platform] = (run[p.platform] ?? 0) + p.views;
    return { ...p, viewsTotal: run[p.platform]! };
  });
}

/** The mean of what is known, rounded; null when nothing is. */
const mean = (xs: (number | null)[]) => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? Math.round(known.reduce((a, b) => a + b, 0) / known.length) : null;
};

/**
 * Analytics (issue 22 items 2–4): the dashboard, a publication's and a profile's curves, and a render request's
 * variants side by side. Reads sums of daily increments (AnalyticsRepository) as they are stored: a profile's
 * days in its own time zone, a chart across profiles adding each one's local days, whose today is the latest
 * today among their zones. A user sees their own, an admin all.
 */
export class AnalyticsService {
  constructor(
    private repo: AnalyticsRepository,
    private now: () => Date = () => new Date(),
  ) {}

  /** The `days` days up to `to` (both included). */
  private range(days: number, to: string) {
    return { from: dayBefore(to, days - 1), to };
  }

  async dashboard(user: AuthUser, period: AnalyticsPeriod): Promise<Dashboard> {
    const scope = ownerScope(user);
    const days = Number(period);
    const { from, to } = this.range(days, latestDay(this.now().getTime(), await this.repo.profileZones(scope)));
    const prevTo = dayBefore(from, 1);
    const prevFrom = dayBefore(from, days);
    const [rows, prevRows, videos] = await Promise.all([
      this.repo.ownerDays(scope, from, to),
      this.repo.ownerDays(scope, prevFrom, prevTo),
      this.repo.topVideos(scope, from, to, TOP),
    ]);
    // A profile grew in the range only on a platform its owner's days have in it.
    const profiles = await this.repo.topProfiles(scope, from, to, [...new Set(rows.map((r) => r.platform))], TOP);
    const series = fillDays(from, to, rows) as DayPoint[];
    const byPlatform = PLATFORMS.map((platform) => ({
      platform,
      ...series.filter((p) => p.platform === platform).reduce((a, p) => add(a, counts(p)), ZERO),
    }));
    return {
      from,
      to,
      totals: series.reduce((a, p) => add(a, counts(p)), ZERO),
      previous: prevRows.reduce((a, p) => add(a, counts(p)), ZERO),
      byPlatform,
      series,
      topVideos: videos.map((v) => ({
        videoId: v.videoId,
        publicationId: v.publicationId,
        title: v.title ?? '',
        ...counts(v),
      })),
      topProfiles: profiles.map((p) => ({
        accountId: p.accountId,
        profile: profileName(p.accountId, p),
        ...counts(p),
      })),
    };
  }

  /** A publication's curve per platform over its whole history (to today). */
  async publication(user: AuthUser, id: number): Promise<Curve> {
    const owner = await this.repo.publicationOwner(id);
    const scope = ownerScope(user);
    if (!owner || (scope !== null && owner.userId !== scope)) throw notFound();
    const [rows, zones] = await Promise.all([this.repo.publicationDays(id), this.repo.publicationZones(id)]);
    const to = latestDay(this.now().getTime(), zones);
    const from = rows[0]?.day ?? to;
    return { from, to, series: withTotals(fillDays(from, to, rows) as DayPoint[]) };
  }

  /** A profile's curve per platform over the period, in days of its time zone. */
  async profile(user: AuthUser, id: number, period: AnalyticsPeriod): Promise<Curve> {
    const owner = await this.repo.profileOwner(id);
    const scope = ownerScope(user);
    if (!owner || (scope !== null && owner.userId !== scope)) throw notFound();
    const zone = profileZone(owner.timeZone);
    const { from, to } = this.range(Number(period), statDay(this.now().getTime(), zone));
    const [rows, before] = await Promise.all([this.repo.profileDays(id, from, to), this.repo.profileBefore(id, from)]);
    const start = Object.fromEntries(before.map((b) => [b.platform, Number(b.views ?? 0)]));
    return { from, to, zone, series: withTotals(fillDays(from, to, rows) as DayPoint[], start) };
  }

  /**
   * A render request's outputs side by side: each one's variation (recomputed from its seed, as the render made
   * it), its background's kind, and its posts' results, with views at 24 h and 7 d after each went public.
   */
  async variants(user: AuthUser, id: number): Promise<Variants> {
    const req = await this.repo.request(id);
    const scope = ownerScope(user);
    if (!req || (scope !== null && req.userId !== scope)) throw notFound();
    const rows = await this.repo.requestPosts(id);
    const nowMs = this.now().getTime();
    const byVideo = new Map<number, typeof rows>();
    for (const r of rows) byVideo.set(r.videoId, [...(byVideo.get(r.videoId) ?? []), r]);
    const variants: Variant[] = [];
    for (const [videoId, group] of byVideo) {
      const index = group[0]!.outputIndex ?? 0;
      const posts: VariantPost[] = [];
      for (const r of group) {
        if (!r.publishId || !r.platform) continue;
        const publishedMs = r.publishedAt ? Date.parse(r.publishedAt) : null;
        const at = async (hours: number) =>
          publishedMs !== null && nowMs >= publishedMs + hours * HOUR_MS
            ? ((await this.repo.viewsAt(r.publishId!, publishedMs + hours * HOUR_MS)) ?? null)
            : null;
        posts.push({
          platform: r.platform as PlatformKey,
          accountId: r.accountId,
          profile: r.accountId ? profileName(r.accountId, r) : '',
          publishedAt: r.publishedAt,
          views: Number(r.views ?? 0),
          likes: Number(r.likes ?? 0),
          comments: Number(r.comments ?? 0),
          views24h: await at(24),
          views7d: await at(24 * 7),
        });
      }
      const v = req.isGenerator ? makeVariation(seedOf(req.idUpload, index), { now: new Date(0) }) : null;
      variants.push({
        videoId,
        index,
        title: group[0]!.title ?? '',
        background:
          !req.isPhoto && !req.isVideo ? 'blur' : req.isVideo && (!req.isPhoto || index % 2 === 1) ? 'video' : 'photo',
        variation: v && {
          zoom: v.zoom,
          dx: v.dx,
          dy: v.dy,
          brightness: v.brightness,
          contrast: v.contrast,
          saturation: v.saturation,
          speed: v.speed,
          trimStartSec: v.trimStartSec,
        },
        posts,
        views: posts.reduce((a, p) => a + p.views, 0),
        likes: posts.reduce((a, p) => a + p.likes, 0),
        comments: posts.reduce((a, p) => a + p.comments, 0),
        views24h: mean(posts.map((p) => p.views24h)),
        views7d: mean(posts.map((p) => p.views7d)),
      });
    }
    return { requestId: req.id, variants };
  }
}
