import type { AuthUser } from '../../src/contract/auth';
import { toId } from '../../src/contract/ids';
import {
  IM,
  IMPORT_ROWS_MAX,
  type ImportDone,
  type ImportIssue,
  type ImportReport,
  type ImportRow,
} from '../../src/contract/imports';
import { PLATFORM_TITLES, PLATFORMS, type PlatformKey } from '../../src/contract/platforms';
import { DESCRIPTION_MAX, PM, TITLE_MAX, horizonEnd } from '../../src/contract/publications';
import { csvDateIn, parsePublicationCsv, publicationCsv, type CsvRow } from '../../src/contract/publication-csv';
import { DEFAULT_TIME_ZONE } from '../../src/contract/time-zones';
import { encodeMessage } from '../../src/contract/stored-message';
import { ownerScope } from '../auth/guards';
import type { Db } from '../db/index';
import { AppError } from '../http/errors';
import { translate } from '../http/i18n';
import { connectedOf } from '../publications/publication-rules';
import type { PublicationSchedule } from '../publications/publication-schedule';
import type { PublicationsRepository } from '../publications/publications.repository';
import type { VideosRepository } from '../videos/videos.repository';
import type { ImportsRepository, ImportVideo } from './imports.repository';
import type { NextSlotFinder } from './next-slot';

type Locale = 'uk' | 'en';
type Issue = Omit<ImportIssue, 'text'>;

/** One row's plan: the video, each profile with its platforms, the date, the texts. */
type Plan = {
  csv: CsvRow;
  video: ImportVideo | null;
  /** `date` the placement's own; `dueAt` a platform's post's when it differs ("next slot": each platform's slot). */
  targets: {
    accountId: number;
    platforms: PlatformKey[];
    date: string | null;
    dueAt?: Partial<Record<PlatformKey, string>>;
  }[];
};

const DUPLICATE = PM.duplicatePost;

/**
 * Bulk import of publications from CSV (issue 21 item 4). `dryRun` reads the file and checks every row against
 * the caller's videos, profiles, groups, connected platforms, the horizon and the duplicate guard (a file's own
 * repeats included), writing nothing; `commit` checks again and, only when no row has an error, writes every row
 * in one transaction (all rows or none). A row's video is placed on its profile: a render output not yet in a
 * publication joins its request's publication (made when there is none); a video already placed, or a second
 * profile of the same file, becomes a new placement of the file in that publication (VideosRepository
 * .insertPlacement). Posts are scheduled through PublicationSchedule, so the duplicate index is the last word.
 */
export class ImportsService {
  constructor(
    private repo: ImportsRepository,
    private deps: {
      db: Db;
      publications: PublicationsRepository;
      videos: VideosRepository;
      schedule: PublicationSchedule;
      nextSlot: NextSlotFinder;
      horizonDays: number;
    },
  ) {}

  async dryRun(user: AuthUser, csv: string, locale: Locale): Promise<ImportReport> {
    const { report } = await this.check(user, csv, locale);
    return report;
  }

  async commit(user: AuthUser, csv: string, locale: Locale): Promise<ImportDone> {
    const { report, plans } = await this.check(user, csv, locale);
    if (report.errors > 0) {
      const errors: Record<string, string> = {};
      for (const i of report.issues.filter((x) => x.level === 'error'))
        errors[`rows.${i.row}.${i.field}`] ??= encodeMessage(i.message, i.args ?? {});
      throw new AppError(400, IM.notWritten, errors, { count: report.errors });
    }
    return this.write(plans);
  }

  /** GET export: the caller's publications as the import's CSV (one row per placed video, its live platforms). */
  async exportCsv(user: AuthUser): Promise<string> {
    const rows = await this.repo.exportRows(ownerScope(user));
    const by = new Map<number, (typeof rows)[number] & { platforms: PlatformKey[]; repeat: boolean }>();
    for (const r of rows) {
      const v = by.get(r.id) ?? { ...r, platforms: [], repeat: false };
      v.platforms.push(r.platform as PlatformKey);
      v.repeat ||= Number(r.repeatOf) > 0;
      by.set(r.id, v);
    }
    const tagsOf = (s: string | null) => {
      try {
        const t: unknown = JSON.parse(s ?? '[]');
        return Array.isArray(t) ? t.map(String) : [];
      } catch {
        return [];
      }
    };
    return publicationCsv(
      [...by.values()].map((v) => ({
        video: String(v.id),
        profile: v.accountId ? String(v.accountId) : '',
        platforms: PLATFORMS.filter((p) => v.platforms.includes(p)),
        title: v.title ?? '',
        description: v.description ?? '',
        tags: tagsOf(v.tags),
        date: v.date ?? v.dueAt,
        repeat: v.repeat,
      })),
    );
  }

  private async check(user: AuthUser, csv: string, locale: Locale) {
    const scope = ownerScope(user);
    const parsed = parsePublicationCsv(csv);
    const issues: Issue[] = [...parsed.issues];
    const err = (row: number, field: string, message: string, args?: Record<string, string | number>) =>
      issues.push({ row, field, level: 'error', message, ...(args ? { args } : {}) });
    const warn = (row: number, field: string, message: string, args?: Record<string, string | number>) =>
      issues.push({ row, field, level: 'warning', message, ...(args ? { args } : {}) });
    if (!parsed.rows.length && !issues.some((i) => i.level === 'error')) err(1, 'video', IM.empty);
    if (parsed.rows.length > IMPORT_ROWS_MAX) err(1, 'video', IM.tooManyRows, { max: IMPORT_ROWS_MAX });

    const ids = new Set<number>();
    const names = new Set<string>();
    for (const r of parsed.rows) {
      if (!r.video) continue;
      const id = /^\d+$/.test(r.video) ? toId(r.video) : 0;
      if (id > 0) ids.add(id);
      else names.add(r.video);
    }
    const found = await this.repo.videos(scope, [...ids], [...names]);
    const byId = new Map(found.filter((v) => !v.name).map((v) => [v.id, v]));
    const byName = new Map(found.filter((v) => v.name).map((v) => [v.name!, v]));
    const accounts = await this.repo.accounts(scope);
    const accountIds = new Set(accounts.map((a) => a.id));
    const zones = new Map(accounts.map((a) => [a.id, a.timeZone ?? DEFAULT_TIME_ZONE]));
    const groups = await this.repo.groups(scope);
    const connected = await this.deps.publications.accounts([...accountIds], scope);
    const keys = [...new Set(found.map((v) => v.storageKey).filter((k): k is string => !!k))];
    const live = new Set(
      (await this.repo.livePosts(keys)).map((p) => JSON.stringify([p.fileKey, p.accountId, p.platform])),
    );
    const planned = new Set<string>();
    // "next slot" times the file's earlier rows took, per profile and platform (not written until the commit).
    const slotsTaken = new Map<string, Date[]>();
    const now = Date.now();
    const plans: Plan[] = [];
    const rows: ImportRow[] = [];

    for (const r of parsed.rows) {
      const n = r.row;
      let video: ImportVideo | null = null;
      if (r.video) {
        const id = /^\d+$/.test(r.video) ? toId(r.video) : 0;
        video = (id > 0 ? byId.get(id) : byName.get(r.video)) ?? null;
        if (!video) err(n, 'video', IM.videoNotFound, { video: r.video });
        else if (!video.storageKey || video.mediaRemovedAt !== null)
          err(n, 'video', IM.videoNoFile, { video: video.id });
      }
      // The profiles: by id, or by its comment (its name in the panel); or a group's members.
      let profiles: number[] = [];
      if (r.profile) {
        const id = /^\d+$/.test(r.profile) ? toId(r.profile) : 0;
        const named = accounts.filter((a) => (a.comments ?? '').trim().toLowerCase() === r.profile.toLowerCase());
        if (id > 0 && accountIds.has(id)) profiles = [id];
        else if (named.length === 1) profiles = [named[0]!.id];
        else if (named.length > 1) err(n, 'profile', IM.profileAmbiguous, { profile: r.profile });
        else err(n, 'profile', IM.profileNotFound, { profile: r.profile });
      }
      if (r.group) {
        const id = /^\d+$/.test(r.group) ? toId(r.group) : 0;
        const g = groups.find((x) => x.id === id || x.name.trim().toLowerCase() === r.group.toLowerCase());
        if (!g) err(n, 'group', IM.groupNotFound, { group: r.group });
        else if (!g.members.length) err(n, 'group', IM.groupEmpty, { group: g.name });
        else profiles = [...new Set([...profiles, ...g.members])];
      }
      if (r.title.length > TITLE_MAX) err(n, 'title', PM.titleTooLong);
      if (/[<>]/.test(r.title)) err(n, 'title', PM.noAngleBrackets);
      if (r.description.length > DESCRIPTION_MAX) err(n, 'description', PM.descriptionTooLong);
      if (/[<>]/.test(r.description)) err(n, 'description', PM.noAngleBrackets);
      // A written date is the instant each profile's zone reads it as (a wall time: 18:00 in each profile's zone).
      const written = r.date && !('nextSlot' in r.date) ? r.date : null;
      const zoneOf = (accountId: number) => zones.get(accountId) ?? DEFAULT_TIME_ZONE;
      const dates = written ? (profiles.length ? profiles : [0]).map((id) => csvDateIn(written, zoneOf(id))) : [];
      if (dates.some((d) => Date.parse(d) > horizonEnd(this.deps.horizonDays, now)))
        err(n, 'date', IM.beyondHorizon, { days: this.deps.horizonDays });
      else if (dates.some((d) => Date.parse(d) < now)) warn(n, 'date', IM.inThePast);
      const targets: Plan['targets'] = [];
      for (const accountId of profiles) {
        const a = connected.get(accountId);
        const on = a ? connectedOf(a) : [];
        const platforms = r.platforms.filter((p) => on.includes(p));
        for (const p of r.platforms.filter((x) => !on.includes(x)))
          warn(n, 'platforms', IM.notConnected, { account: accountId, platform: PLATFORM_TITLES[p] });
        let at = written ? csvDateIn(written, zoneOf(accountId)) : null;
        const dueAt: Partial<Record<PlatformKey, string>> = {};
        if (r.date && 'nextSlot' in r.date) {
          for (const platform of platforms) {
            const key = `${accountId}|${platform}`;
            const slot = await this.deps.nextSlot({
              accountId,
              platform,
              after: now,
              taken: slotsTaken.get(key) ?? [],
            });
            if (!slot) {
              err(n, 'date', IM.slotsNotAvailable, { account: accountId, platform: PLATFORM_TITLES[platform] });
              continue;
            }
            slotsTaken.set(key, [...(slotsTaken.get(key) ?? []), new Date(slot)]);
            dueAt[platform] = slot;
            // The placement's own date: its first post's.
            if (!at || slot < at) at = slot;
          }
        }
        if (video?.storageKey) {
          for (const platform of platforms) {
            const key = JSON.stringify([video.storageKey, accountId, platform]);
            const args = { video: video.id, account: accountId, platform: PLATFORM_TITLES[platform] };
            if (!r.repeat && live.has(key)) err(n, 'video', DUPLICATE, args);
            else if (!r.repeat && planned.has(key)) err(n, 'video', IM.repeatInFile, args);
            planned.add(key);
          }
        }
        if (platforms.length) targets.push({ accountId, platforms, date: at, dueAt });
      }
      if (profiles.length && r.platforms.length && !targets.length) err(n, 'platforms', IM.nothingConnected);
      plans.push({ csv: r, video, targets });
      // The row's date as its first profile reads it, in that profile's zone.
      const date = targets[0]?.date ?? dates[0] ?? null;
      rows.push({
        row: n,
        video: r.video,
        videoId: video?.id ?? null,
        profile: r.profile || r.group,
        accounts: profiles,
        platforms: r.platforms,
        title: r.title,
        date,
        timeZone: date === null ? null : zoneOf(targets[0]?.accountId ?? profiles[0] ?? 0),
        repeat: r.repeat,
        posts: targets.reduce((s, t) => s + t.platforms.length, 0),
      });
    }
    issues.sort((a, b) => a.row - b.row);
    const report: ImportReport = {
      rows,
      issues: issues.map((i) => ({ ...i, text: translate(i.message, locale, i.args ?? {}) })),
      errors: issues.filter((i) => i.level === 'error').length,
      warnings: issues.filter((i) => i.level === 'warning').length,
      posts: rows.reduce((s, r) => s + r.posts, 0),
    };
    return { report, plans };
  }

  /**
   * Every row's posts in one transaction: any refusal (the duplicate index included) writes nothing. The rows'
   * videos, their posts and their requests' publications are read once up front and followed in memory as the
   * rows place them; new posts are written in batches (PublicationSchedule.scheduleNew), in the rows' order.
   */
  private async write(plans: Plan[]): Promise<ImportDone> {
    const publications = new Set<number>();
    let posts = 0;
    await this.deps.db.transaction().execute(async (trx) => {
      const used = new Set<number>();
      const platformsOn = new Map<number, Set<string>>();
      const srcIds = [...new Set(plans.map((p) => p.video!.id))];
      const videos = new Map((await this.repo.videosIn(trx, srcIds)).map((v) => [v.id, v]));
      const ownOf = new Map<number, Awaited<ReturnType<PublicationsRepository['publishes']>>>();
      for (const r of await this.deps.publications.publishes(srcIds, trx))
        ownOf.set(r.videoId, [...(ownOf.get(r.videoId) ?? []), r]);
      const requestIds = [...new Set([...videos.values()].map((v) => v.requestId).filter((r) => r !== null))];
      const requestPub = await this.repo.requestPublications(trx, requestIds);
      let pending: Parameters<PublicationSchedule['scheduleNew']>[1][number][] = [];
      const flush = async () => {
        await this.deps.schedule.scheduleNew(trx, pending);
        pending = [];
      };
      for (const plan of plans) {
        const src = plan.video!;
        for (const t of plan.targets) {
          const now = new Date().toISOString();
          const date = t.date ?? now;
          const current = videos.get(src.id)!;
          const texts = {
            title: plan.csv.title,
            description: plan.csv.description,
            tags: JSON.stringify(plan.csv.tags),
          };
          let publicationId = current.publicationId;
          if (publicationId === null && current.requestId !== null)
            publicationId = requestPub.get(current.requestId) ?? null;
          let own = ownOf.get(src.id) ?? [];
          if (publicationId === null) {
            const made = await this.deps.publications.insert(trx, {
              ...texts,
              userId: src.userId,
              requestId: current.requestId,
              createdAt: now,
              updatedAt: now,
            });
            // A publication of the request made meanwhile (another import or the form): that one, and the posts
            // its writer may have given this video, read again now that its transaction is over.
            if (made === undefined) own = await this.deps.publications.publishes([src.id], trx);
            publicationId = made ?? (await this.repo.requestPublication(trx, current.requestId!))!;
            if (current.requestId !== null) requestPub.set(current.requestId, publicationId);
          }
          let videoId: number;
          let version: number;
          // A render output not yet placed (no publication, no live post) takes the row itself; anything else is
          // a new placement of its file.
          const free = !own.some((r) => r.state !== 'cancelled');
          if (current.publicationId === null && current.requestId !== null && !used.has(src.id) && free) {
            version = Number(current.version) + 1;
            videoId = src.id;
            await this.deps.videos.update(trx, src.id, {
              ...texts,
              accountId: t.accountId,
              date,
              publicationId,
              status: 'publication',
              version,
              error: null,
              errorTikTok: null,
              errorInstagram: null,
            });
            videos.set(src.id, { ...current, publicationId, accountId: t.accountId, version });
          } else {
            version = 1;
            videoId = await this.deps.videos.insertPlacement(trx, src.id, {
              ...texts,
              accountId: t.accountId,
              date,
              publicationId,
            });
          }
          used.add(src.id);
          // The publication's platforms (the worker's claim re-check reads them): read once, written at the end.
          const on = platformsOn.get(publicationId) ?? new Set(await this.repo.platformsOf(trx, publicationId));
          for (const p of t.platforms) on.add(p);
          platformsOn.set(publicationId, on);
          // A placed render output may have cancelled rows of an earlier publication (taken again); a new placement none.
          const existing = videoId === src.id ? own : [];
          for (const platform of t.platforms) {
            const dueAt = t.dueAt?.[platform] ?? date;
            const repeat = { allow: plan.csv.repeat, field: `rows.${plan.csv.row}.video` };
            const row = existing.find((r) => r.platform === platform);
            const video = { id: videoId, accountId: t.accountId, version };
            if (row) {
              // A cancelled row taken again goes through the one-post path, after the posts before it.
              await flush();
              await this.deps.schedule.schedule(trx, video, platform, dueAt, row, repeat);
            } else pending.push({ video, platform, dueAt, repeat });
            posts += 1;
          }
          // Both branches wrote status 'publication', what scheduled posts make it (videoStatusOf).
          publications.add(publicationId);
        }
      }
      await flush();
      for (const [id, on] of platformsOn)
        await this.deps.publications.setPlatforms(
          trx,
          id,
          PLATFORMS.filter((p) => on.has(p)),
        );
    });
    return { posts, publications: [...publications] };
  }
}
