import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db, DbKind } from './db/index';
import { createSealer, ensureSealKey, type Sealer } from './crypto/seal';
import { Ffmpeg } from './media/ffmpeg/ffmpeg';
import { createMedia, sweepOrphans, type Media } from './media/storage/index';
import { MultipartUploadsRepository } from './media/storage/multipart-uploads.repository';
import { knownMediaKeys } from './maintenance/media-keys';
import { RetentionRepository } from './retention/retention.repository';
import { RetentionService } from './retention/retention.service';
import { retentionJob, retentionJobWorkers } from './retention/retention.jobs';
import {
  JobQueue,
  JobRunner,
  exponentialBackoff,
  type JobSpec,
  type Enqueue,
  type JobWorker,
  type RunnerOptions,
} from './jobs/index';
import { AuthRepository } from './auth/auth.repository';
import { JobsService } from './operations/jobs.service';
import { JobsRepository } from './operations/jobs.repository';
import { Metrics } from './metrics/metrics';
import { AuthService, type SignAccess } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { TwoFactorRepository } from './auth/two-factor.repository';
import { TwoFactorService } from './auth/two-factor.service';
import { AuditRepository } from './audit/audit.repository';
import { UserLimitCounter } from './http/user-limit-counter';
import { SessionCache } from './auth/session-cache';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountsService } from './accounts/accounts.service';
import { AccountMapper } from './accounts/account-record';
import { PlatformConnections } from './accounts/platform-connections';
import { KeepAliveService } from './accounts/keep-alive.service';
import { PLATFORM_REGISTRY, type PlatformRegistry } from './platforms/registry';
import { accountsJobWorkers, keepAliveJob, proxyCheckJob } from './accounts/accounts.jobs';
import { GroupsRepository } from './groups/groups.repository';
import { GroupsService } from './groups/groups.service';
import { TagsRepository } from './tags/tags.repository';
import { TagsService } from './tags/tags.service';
import { BackgroundsRepository } from './backgrounds/backgrounds.repository';
import { BackgroundsService } from './backgrounds/backgrounds.service';
import { createMediaTools } from './backgrounds/backgrounds.media';
import {
  RenderCancels,
  VideosRepository,
  VideosService,
  mediaRenderEngine,
  renderJob,
  renderWorkRoot,
  videosJobWorkers,
  type RenderEngine,
} from './videos/index';
import { publishJob } from './publishing/publishing.jobs';
import { buildPublishing, type PublishingOverrides } from './publishing/publish.wiring';
import { PublishingRepository } from './publishing/publishing.repository';
import { TokenRefreshes } from './platforms/fresh-token';
import { statsJob } from './publishing/publishing.jobs';
import { PublicationsRepository } from './publications/publications.repository';
import { PublicationsService } from './publications/publications.service';
import { TikTokCreators } from './publications/tiktok-creator';
import { PublicationSchedule } from './publications/publication-schedule';
import { CalendarRepository } from './calendar/calendar.repository';
import { CalendarService } from './calendar/calendar.service';
import { ApprovalsRepository } from './approvals/approvals.repository';
import { ApprovalsService } from './approvals/approvals.service';
import { AnalyticsRepository } from './analytics/analytics.repository';
import { AnalyticsService } from './analytics/analytics.service';
import { StatsHistoryRepository } from './analytics/stats-history.repository';
import { StatsRollUp } from './analytics/stats-rollup';
import { analyticsJobWorkers, rollUpJob } from './analytics/analytics.jobs';
import { ImportsRepository } from './imports/imports.repository';
import { ImportsService } from './imports/imports.service';
import { nextSlotOf } from './imports/next-slot';
import { SlotPlanner } from './slots/slot-planner';
import { SlotsRepository } from './slots/slots.repository';
import { SlotsService } from './slots/slots.service';
import { adaptersOf } from './platforms/registry';
import { LiveHub, LiveRepository, LiveService, LiveStreams, liveNotices } from './live/index';
import { EventBus } from './events/event-bus';
import { AiRepository } from './ai/ai.repository';
import { AiVideosRepository } from './ai/ai-videos.repository';
import { AiService } from './ai/ai.service';
import { AiVideosService } from './ai/ai-videos.service';
import { AiLog } from './ai/ai-log';
import { aiJobWorkers, aiVideoJob } from './ai/ai.jobs';
import { createChatDrivers, type ChatDrivers } from './ai/drivers/index';
import { createVideoGenerator, type VideoGenerator } from './ai/video/index';
import { AiVideoGeneration } from './ai/video/generation';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { WebhooksRepository } from './webhooks/webhooks.repository';
import { WebhooksService } from './webhooks/webhooks.service';
import { WebhookSender } from './webhooks/webhook-sender';
import { webhooksSubscriber } from './webhooks/webhooks.subscriber';
import { webhookDeliverJob, webhooksJobWorkers } from './webhooks/webhooks.jobs';

export type ContainerInput = {
  config: Config;
  db: Db;
  dbKind: DbKind;
  /** Signs access tokens (the app's @fastify/jwt, registered before the container is built). */
  signAccess: SignAccess;
  log?: FastifyBaseLogger;
};

/** Where a test swaps a part for a fake; everything else is the real thing. */
export type ContainerOverrides = {
  /** Wraps (or replaces) the render engine the render job uses; receives the real one. */
  renderEngine?: (real: RenderEngine) => RenderEngine;
  /** The AI chat drivers (default: from config.ai) and the video generator. */
  aiDrivers?: ChatDrivers;
  videoGenerator?: VideoGenerator | null;
  /** The platforms (default: the registry's three; a test adds one). */
  platforms?: PlatformRegistry;
} & PublishingOverrides;

/** Runner settings besides the queue and the workers, which the container supplies. */
export type RunnerSettings = Omit<RunnerOptions, 'queue' | 'workers' | 'catalogue'> & {
  catalogue?: readonly JobSpec<string, unknown>[];
};

/**
 * The composition root: every repository, service, driver adapter, the sealer, media storage, the one
 * Ffmpeg, the event bus, the job queue and the job catalogue with its workers, the running renders' cancel
 * switches, built once from config. Routes and workers receive their parts from here, through their
 * constructors; nothing else constructs a service or a repository.
 */
export type Container = Awaited<ReturnType<typeof buildContainer>>;

/** A stored job payload as JSON (or the text itself when it is not JSON). */
const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export async function buildContainer(input: ContainerInput, overrides: ContainerOverrides = {}) {
  const { config, db, dbKind, log } = input;
  const sealer: Sealer = createSealer(config.appKey);
  // Refuses to start when APP_KEY differs from the key this database was sealed with.
  await ensureSealKey(db, sealer);
  const media: Media = await createMedia(config, new MultipartUploadsRepository(db));
  const ffmpeg = new Ffmpeg(config);
  const liveRepo = new LiveRepository(db);
  const webhooksRepo = new WebhooksRepository(db);
  // The bus is built before the queue (whose dead jobs it records); its webhook subscriber enqueues through this.
  const lateEnqueue: Enqueue = (job, payload, opts, trx) => queue.enqueue(job, payload, opts, trx);
  // The domain event bus (server/events): services and workers record events with their changes; the bell
  // subscribes (once per event), the live streams follow (every process). PostgreSQL: LISTEN/NOTIFY wakes it.
  const events = new EventBus({
    db,
    dbKind,
    pollMs: dbKind === 'sqlite' ? 500 : 2000,
    listenUrl: dbKind === 'postgres' ? config.databaseUrl : undefined,
    // Webhooks queue their deliveries through the queue (built below; the subscriber calls it at delivery time).
    subscribers: [liveNotices(liveRepo), webhooksSubscriber(webhooksRepo, lateEnqueue)],
    log,
  });
  const queue: JobQueue = new JobQueue(
    db,
    dbKind,
    Date.now,
    { max: config.jobMaxStalls, backoff: exponentialBackoff(config.jobStallBackoffMs) },
    // Every job that goes dead is a `job.dead` event, recorded as it is stored dead.
    (trx, job) =>
      events.record(trx, { name: 'job.dead', userId: null, payload: { job: job.name, payload: jsonOf(job.payload) } }),
  );

  const sessionCache = new SessionCache();
  const hub = new LiveHub({
    events,
    // Read through the repository the guards use (below), so a stream follows the same rule as a request.
    sessions: (keys) => repos.auth.liveSessions(keys, Date.now()),
    log,
  });
  const live = new LiveService(liveRepo, { ticketKey: sealer.subKey('live-ticket') });
  /** The one writer of `videos`: the other repositories and services that change a video call it. */
  const videosRepo = new VideosRepository(db);
  const repos = {
    auth: new AuthRepository(db, sessionCache),
    users: new UsersRepository(db),
    accounts: new AccountsRepository(db, videosRepo),
    groups: new GroupsRepository(db),
    tags: new TagsRepository(db),
    backgrounds: new BackgroundsRepository(db),
    videos: videosRepo,
    publications: new PublicationsRepository(db),
    posts: new PublishingRepository(db, videosRepo),
    ai: new AiRepository(db),
    aiVideos: new AiVideosRepository(db),
    retention: new RetentionRepository(db, videosRepo),
    apiKeys: new ApiKeysRepository(db),
    webhooks: webhooksRepo,
    twoFactor: new TwoFactorRepository(db),
    /** The audit log's reader (server/audit/audit.ts `record` is its only writer). */
    audit: new AuditRepository(db),
  };

  const twoFactor = new TwoFactorService(repos.twoFactor, db, sealer, sealer.subKey('two-factor-challenge'));

  const auth = new AuthService(
    repos.auth,
    new LoginThrottle(db, config.loginThrottle),
    input.signAccess,
    config.refreshTokenTtlSec,
    config.jwtSecret,
    events,
    twoFactor,
    db,
  );
  const accountMapper = new AccountMapper(sealer);
  const platforms = overrides.platforms ?? PLATFORM_REGISTRY;
  const refreshes = new TokenRefreshes();
  const connections = new PlatformConnections(
    repos.accounts,
    accountMapper,
    sealer,
    config,
    platforms,
    events,
    refreshes,
  );
  const keepAlive = new KeepAliveService(repos.accounts, accountMapper, connections, platforms, events);
  const backgrounds = new BackgroundsService(repos.backgrounds, media, createMediaTools(ffmpeg), log);
  const workRoot = renderWorkRoot(config.dataDir);
  const renderCancels = new RenderCancels();
  const realEngine = mediaRenderEngine(ffmpeg);
  const renderEngine = overrides.renderEngine ? overrides.renderEngine(realEngine) : realEngine;

  const aiDrivers =
    overrides.aiDrivers ?? createChatDrivers(config.ai, { allowPrivateProxy: config.allowPrivateProxies, log });
  const videoGenerator =
    overrides.videoGenerator !== undefined ? overrides.videoGenerator : createVideoGenerator(config.ai);
  const aiLog = new AiLog(repos.ai);
  const publicationSchedule = new PublicationSchedule(repos.publications, repos.posts, repos.videos, queue);
  const ai = new AiService(repos.ai, {
    sealer,
    drivers: aiDrivers,
    media,
    log: aiLog,
    historyTurns: config.ai.historyTurns,
  });
  const aiVideos = new AiVideosService(repos.aiVideos, ai, {
    db,
    media,
    drivers: aiDrivers,
    log: aiLog,
    enqueue: queue.enqueue,
    publications: repos.publications,
    videos: repos.videos,
    schedule: publicationSchedule,
    video: { configured: videoGenerator !== null, remix: Boolean(videoGenerator?.remix) },
  });
  const aiGeneration = new AiVideoGeneration(repos.aiVideos, {
    generator: videoGenerator,
    media,
    log: aiLog,
    video: config.ai.video,
  });

  const publishing = buildPublishing(
    { config, db, sealer, media, ffmpeg, queue, repos, connections, platforms, events, log },
    overrides,
  );
  const webhookSender = new WebhookSender(config.allowPrivateWebhooks);
  const webhooks = new WebhooksService(repos.webhooks, {
    db,
    sealer,
    sender: webhookSender,
    allowPrivate: config.allowPrivateWebhooks,
  });
  const slotsRepo = new SlotsRepository(db, dbKind);
  // The queue's budgets are the quota module's figures: each platform's adapter limits.
  const slotPlanner = new SlotPlanner(
    slotsRepo,
    Object.fromEntries(adaptersOf(platforms).map((a) => [a.id, a.limits])),
  );
  const services = {
    apiKeys: new ApiKeysService(repos.apiKeys, db, config.apiKeyRateLimit),
    webhooks,
    ai,
    aiVideos,
    auth,
    twoFactor,
    users: new UsersService(repos.users, repos.auth, events),
    accounts: new AccountsService(
      repos.accounts,
      accountMapper,
      connections,
      (userId, sid) => repos.ai.isSessionOf(userId, sid),
      (key) => media.signer.url(key),
      lateEnqueue,
    ),
    keepAlive,
    connections,
    groups: new GroupsService(repos.groups),
    tags: new TagsService(repos.tags),
    backgrounds,
    videos: new VideosService(repos.videos, {
      db,
      media,
      queue,
      backgrounds,
      isVideo: (p) => ffmpeg.isVideo(p),
      cancels: renderCancels,
      workRoot,
      log,
    }),
    publications: new PublicationsService(repos.publications, {
      db,
      requests: repos.videos,
      schedule: publicationSchedule,
      signer: media.signer,
      posts: { stats: publishing.stats, repo: publishing.repo },
      aiVideos,
      creators: new TikTokCreators({ accounts: repos.accounts, connections }),
      placeInSlot: (trx, accountId, platform, after) => slotPlanner.place(trx, accountId, platform, after),
    }),
    calendar: new CalendarService(new CalendarRepository(db), {
      db,
      publications: repos.publications,
      videos: repos.videos,
      schedule: publicationSchedule,
      horizonDays: config.publishHorizonDays,
      planner: slotPlanner,
    }),
    approvals: new ApprovalsService(new ApprovalsRepository(db), {
      db,
      posts: repos.posts,
      schedule: publicationSchedule,
      events,
    }),
    analytics: new AnalyticsService(new AnalyticsRepository(db)),
    imports: new ImportsService(new ImportsRepository(db), {
      db,
      publications: repos.publications,
      videos: repos.videos,
      schedule: publicationSchedule,
      nextSlot: nextSlotOf(slotPlanner, db),
      horizonDays: config.publishHorizonDays,
    }),
    slots: new SlotsService(slotsRepo, {
      db,
      planner: slotPlanner,
      publications: repos.publications,
      schedule: publicationSchedule,
    }),
  };

  /** Every job kind the server knows; a runner over it refuses to start when one has no worker. */
  const catalogue: readonly JobSpec<string, unknown>[] = [
    renderJob,
    keepAliveJob,
    proxyCheckJob,
    publishJob,
    statsJob,
    aiVideoJob,
    retentionJob,
    rollUpJob,
    webhookDeliverJob,
  ];
  const rollUp = new StatsRollUp(new StatsHistoryRepository(db));
  const retention = new RetentionService(repos.retention, media.storage, config.retention, log);
  const workers: JobWorker[] = [
    ...videosJobWorkers({
      repo: repos.videos,
      events,
      cancels: renderCancels,
      media,
      backgrounds,
      engine: renderEngine,
      workRoot,
      concurrency: config.renderConcurrency,
      log,
    }),
    ...accountsJobWorkers({ keepAlive, connections, log }),
    ...publishing.workers,
    ...aiJobWorkers({ generation: aiGeneration }),
    ...retentionJobWorkers({ retention, log }),
    ...analyticsJobWorkers({ rollUp, log }),
    ...webhooksJobWorkers({ webhooks }),
  ];

  /** The queue as the operator sees it (the Jobs screen and /metrics), and the metrics when METRICS_TOKEN is set. */
  const jobsView = new JobsRepository(db);
  const metrics = config.metricsToken ? new Metrics(jobsView) : undefined;

  return {
    config,
    db,
    dbKind,
    log,
    sealer,
    sessionCache,
    /** Per-user counts of expensive operations (server/http/user-limits.ts guards the routes with it). */
    userLimits: new UserLimitCounter(db, config.userLimits),
    media,
    ffmpeg,
    queue,
    events,
    repos,
    /** The platforms the services reach (the registry, or the test's override): the OAuth routes follow it. */
    platforms,
    /** The domain services, and the operator's view of the queue over the catalogue (the Jobs screen). */
    services: { ...services, jobs: new JobsService(jobsView, catalogue) },
    metrics,
    renderWorkRoot: workRoot,
    /** Media retention's pass (the 'media.retention' job runs it; tests call it directly). */
    retention,
    /** The stats roll-up pass (the 'analytics.rollup' job runs it; tests call it directly). */
    rollUp,
    publishing,
    live: { service: live, hub, repo: liveRepo, streams: new LiveStreams({ live, hub, auth: repos.auth }) },
    aiDrivers,
    videoGenerator,
    webhookSender,
    jobs: { catalogue, workers },

    /** A job runner over the catalogue (or the given part of it), with the queue's timing from config. */
    createJobRunner(settings: RunnerSettings = {}): JobRunner {
      return new JobRunner({
        leaseMs: config.jobLeaseSec * 1000,
        log,
        ...settings,
        pollMs: settings.pollMs ?? config.jobPollMs,
        catalogue: settings.catalogue ?? catalogue,
        queue,
        workers: metrics ? metrics.timed(workers) : workers,
      });
    },

    /**
     * Media files under the keys the app writes (backgrounds/, clips/, videos/, ai/) that no row names any more,
     * once they are ORPHAN_MIN_AGE_MS old: left by a crash between a file's move into place and its row's commit.
     */
    /**
     * Multipart uploads a killed process left pending on S3 (recorded in `multipart_uploads` as they start), aborted
     * once older than S3_STALE_UPLOAD_HOURS; nothing on local disk. Returns their keys.
     */
    sweepStaleUploads(maxAgeMs?: number): Promise<string[]> {
      return media.storage.sweepUploads(maxAgeMs);
    },

    sweepOrphanMedia(opts?: { minAgeMs?: number; now?: number }): Promise<string[]> {
      return sweepOrphans(
        media.storage,
        ['backgrounds', 'clips', 'videos', 'ai'],
        (keys) => knownMediaKeys(db, keys),
        opts,
      );
    },
  };
}
