import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fastifyStatic from '@fastify/static';
import fastifyMultipart from '@fastify/multipart';
import type { Config } from './config';
import type { Db, DbKind } from './db/index';
import { M } from '../src/contract/messages';
import { frameworkErrorAnswer, installErrorHandler } from './http/errors';
import { installJsonParser } from './http/bad-input';
import { installLingeringClose } from './http/lingering-close';
import { installUserLimits } from './http/user-limits';
import { registerOpenapi } from './http/openapi';
import { registerSecurityHeaders } from './http/security-headers';
import { installBodyIdleTimeout, serverTimeoutOptions } from './http/slow-clients';
import { serializerCompiler, validatorCompiler } from './http/schema';
import { localeOf, translate } from './http/i18n';
import { authRoutes } from './auth/auth.routes';
import { usersRoutes } from './users/users.routes';
import { twoFactorRoutes } from './auth/two-factor.routes';
import { auditRoutes } from './audit/audit.routes';
import { requireAdmin } from './auth/guards';
import { accountsRoutes } from './accounts/accounts.routes';
import { groupsRoutes } from './groups/groups.routes';
import { tagsRoutes } from './tags/tags.routes';
import { mediaRoutes } from './media/media.routes';
import { mediaUsageRoutes } from './retention/media-usage.routes';
import { backgroundsRoutes } from './backgrounds/index';
import { createVideoRoutes } from './videos/index';
import { publicationsRoutes } from './publications/publications.routes';
import { calendarRoutes } from './calendar/calendar.routes';
import { approvalsRoutes } from './approvals/approvals.routes';
import { analyticsRoutes } from './analytics/analytics.routes';
import { importsRoutes } from './imports/imports.routes';
import { slotsRoutes } from './slots/slots.routes';
import { liveRoutes } from './live/index';
import { jobsRoutes } from './operations/jobs.routes';
import { healthRoutes } from './operations/health.routes';
import { measureHttp, metricsRoutes } from './metrics/metrics.routes';
import { buildContainer, type Container, type ContainerOverrides } from './container';
import { aiService, allowPanelOrigin } from './ai/ai-app';
import { apiKeysRoutes } from './api-keys/api-keys.routes';
import { webhooksRoutes } from './webhooks/webhooks.routes';

export type AppDeps = { config: Config; db: Db; dbKind: DbKind };

/** Paths whose values never reach the logs. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.accessToken',
  '*.refreshToken',
  '*.token',
  '*.clientSecret',
  '*.secret',
  '*.YouTubeAuthClientSecret',
  '*.YouTubePassword',
  '*.InstagramPassword',
  '*.InstagramTwofaCode',
  '*.passwordGPT',
  '*.passwordDeepSeek',
  '*.proxy',
  '*.proxyGPT',
  '*.code',
  '*.text',
];

/**
 * Builds the whole HTTP app and, through server/container.ts, everything behind it (reach it as app.root:
 * main.ts starts the workers from it). Never listens: main.ts does, tests use app.inject.
 */
export async function buildApp(
  { config, db, dbKind }: AppDeps,
  overrides: ContainerOverrides = {},
): Promise<FastifyInstance> {
  const app = await createHttpApp(config);
  const root = await buildContainer(
    {
      config,
      db,
      dbKind,
      log: app.log,
      signAccess: (u, sid) => app.jwt.sign({ sub: u.id, login: u.login, role: u.role, sid }),
    },
    overrides,
  );
  app.decorate('root', root);
  app.decorate('db', db);
  app.decorate('dbKind', dbKind);
  app.decorate('config', config);
  // Shared media: storage (local disk under data/media) and signed links; reach them as app.media.
  app.decorate('media', root.media);
  void root.media.storage.sweepStaging().catch((err) => app.log.warn({ err }, 'media staging sweep failed'));

  const { services } = root;
  await app.register(healthRoutes, { db, storage: root.media.storage });
  if (root.metrics && config.metricsToken) {
    measureHttp(app, root.metrics);
    await app.register(metricsRoutes, { metrics: root.metrics, token: config.metricsToken });
  }
  await app.register(authRoutes, { auth: services.auth });
  await app.register(usersRoutes, { users: services.users });
  await app.register(accountsRoutes, { accounts: services.accounts, platforms: root.platforms });
  await app.register(twoFactorRoutes, { twoFactor: services.twoFactor });
  await app.register(auditRoutes, { audit: root.repos.audit, adminOnly: requireAdmin });
  await app.register(groupsRoutes, { groups: services.groups });
  await app.register(tagsRoutes, { tags: services.tags });
  await app.register(mediaRoutes, { media: root.media });
  await app.register(mediaUsageRoutes, { repo: root.repos.retention });
  await app.register(publicationsRoutes, { publications: services.publications, platforms: root.platforms });
  await app.register(calendarRoutes, { calendar: services.calendar });
  await app.register(approvalsRoutes, { approvals: services.approvals });
  await app.register(analyticsRoutes, { analytics: services.analytics });
  await app.register(importsRoutes, { imports: services.imports });
  await app.register(slotsRoutes, { slots: services.slots });
  await app.register(liveRoutes, { live: root.live.service, streams: root.live.streams });
  await app.register(jobsRoutes, { jobs: services.jobs });
  await app.register(apiKeysRoutes, { apiKeys: services.apiKeys });
  await app.register(webhooksRoutes, { webhooks: services.webhooks });
  // The event bus delivers from now on; closed with the app (what is not delivered yet stays due in the table).
  root.events.start();
  app.addHook('onClose', async () => {
    await root.live.hub.close();
    await root.events.close();
  });
  // The AI service: on the API's origin unless AI_PORT gives it a port of its own (main.ts, server/ai/ai-app.ts).
  if (config.ai.port === undefined) await app.register(aiService, { ai: services.ai, videos: services.aiVideos });
  app.addHook('onClose', async () => root.aiDrivers.close());
  app.addHook('onClose', async () => root.webhookSender.close());
  // The upload routes, in a context of their own with multipart: streamed through req.parts()/req.file(), no
  // file size limit (SPEC §9). Multipart hooks every request of its context, so the other routes stay out.
  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { limits: { fileSize: Infinity, files: 1000, fields: 100 } });
    await uploads.register(backgroundsRoutes, { backgrounds: services.backgrounds });
    await uploads.register(createVideoRoutes, { videos: services.videos });
  });

  await servePanel(app, config.panelDir);
  return app;
}

/** Pino's options: the level, redaction, and request lines without their query. */
function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: { paths: LOG_REDACT, censor: '[redacted]' },
    // OAuth callbacks carry one-time codes and signed media links carry signatures in the query: log the path only.
    serializers: {
      req: (req) => ({ method: req.method, url: String(req.url).split('?')[0], remoteAddress: req.ip }),
    },
  };
}

/**
 * A worker process's only HTTP (PROCESS_ROLE=worker, on HEALTH_PORT): `/health/live` and `/health/ready` over
 * its composition root, without authentication; with METRICS_TOKEN also `/metrics` behind that token, so the
 * job figures only workers measure (claim lag, durations) and their memory can be scraped. No panel, no API.
 */
export async function buildHealthApp(root: Container): Promise<FastifyInstance> {
  const app = Fastify({ logger: loggerOptions(root.config) });
  installErrorHandler(app);
  await app.register(healthRoutes, { db: root.db, storage: root.media.storage });
  if (root.metrics && root.config.metricsToken)
    await app.register(metricsRoutes, { metrics: root.metrics, token: root.config.metricsToken });
  return app;
}

/**
 * The Fastify instance every Kadr HTTP app starts from (the API, and the AI service on its own port): logging
 * with redaction, bad-input parsing, slow-client limits, lingering close, the one error shape, security headers,
 * zod schemas, the OpenAPI document, per-user limits of expensive routes and the bearer-token verifier.
 */
async function createHttpApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...serverTimeoutOptions(config.clientTimeouts),
    // A URL Fastify cannot decode: a translated 400 that does not repeat the URL (nor a signed link's signature).
    frameworkErrors: frameworkErrorAnswer,
  });
  installJsonParser(app);
  installLingeringClose(app, config.lingering);
  installBodyIdleTimeout(app, config.clientTimeouts.bodyIdleMs);
  installErrorHandler(app);
  await registerSecurityHeaders(app);
  // Routes declare zod schemas (src/contract): requests are validated and answers serialised through them.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenapi(app);
  installUserLimits(app);
  await app.register(fastifyJwt, {
    secret: config.jwtSecret,
    sign: { expiresIn: config.accessTokenTtlSec },
  });
  return app;
}

/**
 * The AI service on a port of its own (AI_PORT; main.ts listens on it) over the same composition root: the
 * same database, bearer tokens (same JWT secret and session check), error shape, security headers and API
 * docs. The panel's origin (PUBLIC_URL) may call it cross-origin.
 */
export async function buildAiApp(root: Container): Promise<FastifyInstance> {
  const app = await createHttpApp(root.config);
  app.decorate('root', root);
  app.decorate('db', root.db);
  app.decorate('dbKind', root.dbKind);
  app.decorate('config', root.config);
  app.decorate('media', root.media);
  allowPanelOrigin(app, root.config.publicUrl);
  await app.register(aiService, { ai: root.services.ai, videos: root.services.aiVideos });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send({ message: translate(M.notFound, localeOf(req.headers['accept-language'])), statusCode: 404 }),
  );
  return app;
}

/** The built panel, with an SPA fallback so deep links such as /users/5 load. */
async function servePanel(app: FastifyInstance, dir: string) {
  const index = join(dir, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, {
      root: dir,
      // Files are looked up when asked for, not listed once at start: a panel rebuilt under a running server
      // serves its new chunks (a list taken at start answered them with the SPA's index.html, as text/html).
      wildcard: true,
      // The build writes .br and .gz next to each text file (scripts/vite/precompress.ts): sent to browsers that
      // accept them, with the same headers.
      preCompressed: true,
      // @fastify/static's own Cache-Control (max-age=0 by default) would replace the one set here.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // A missing chunk is a 404, never the page: a browser would refuse HTML as a module script, blank.
    const wantsPage =
      req.method === 'GET' && !req.url.startsWith('/api/') && !req.url.startsWith('/assets/') && existsSync(index);
    if (wantsPage) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    return reply
      .status(404)
      .send({ message: translate(M.notFound, localeOf(req.headers['accept-language'])), statusCode: 404 });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The composition root (server/container.ts). */
    root: Container;
    db: Db;
    dbKind: DbKind;
    config: Config;
    media: import('./media/storage/index').Media;
  }
}
