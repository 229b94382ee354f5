import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { PlatformsConfig } from './platforms/index';
import type { AiConfig } from './config-ai';
import type { ClientTimeouts } from './http/slow-clients';
import type { LingerLimits } from './http/lingering-close';
import type { UserLimits } from './http/user-limits';
import { defaultRenderConcurrency } from './media/render/render-batch';
import { PUBLISH_HORIZON_DAYS_DEFAULT } from '../src/contract/publications';

export type { AiConfig, AiDriverKind, AiProviderConfig, VideoDialect } from './config-ai';

/** The one place that reads process.env: validated, typed, with defaults for a laptop. */
const EnvSchema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_LOGIN: z.string().min(2).max(50).optional(),
  ADMIN_PASSWORD: z.string().min(6).max(50).optional(),
  APP_KEY: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REFRESH_TOKEN_TTL_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_LOCK_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  LOGIN_MAX_DELAY_MS: z.coerce.number().int().nonnegative().default(10_000),
  // Behind a reverse proxy: whose X-Forwarded-For to believe ('true' = any proxy, or its addresses/CIDRs).
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9a-fA-F.:/, ]+)$/, 'true, false, or addresses/CIDRs')
    .default('false'),
  // Slow clients: headers must arrive in time, a body must keep flowing; idle keep-alive and sockets close.
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(72_000),
  CONNECTION_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(600_000),
  // Lingering close: after an early answer (a refused upload), the rest of the body is read up to these bounds.
  LINGER_MAX_BYTES: z.coerce.number().int().min(0).max(1_073_741_824).default(4_194_304),
  LINGER_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  // Per-user limits of expensive operations, per hour (server/http/user-limits.ts); 0 = no limit.
  LIMIT_RENDERS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(300),
  LIMIT_PUBLISH_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(600),
  LIMIT_AI_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  PUBLIC_URL: z.string().optional(),
  WORKERS: z.enum(['on', 'off']).default('on'),
  // Platforms (accounts): production hosts by default; tests and SIMULATORS=on point them at local simulators.
  YOUTUBE_AUTH_BASE_URL: z.url().optional(),
  YOUTUBE_TOKEN_BASE_URL: z.url().optional(),
  YOUTUBE_API_BASE_URL: z.url().optional(),
  TIKTOK_AUTH_BASE_URL: z.url().optional(),
  TIKTOK_API_BASE_URL: z.url().optional(),
  TIKTOK_CLIENT_KEY: z.string().optional(),
  TIKTOK_CLIENT_SECRET: z.string().optional(),
  INSTAGRAM_AUTH_BASE_URL: z.url().optional(),
  INSTAGRAM_API_BASE_URL: z.url().optional(),
  INSTAGRAM_GRAPH_BASE_URL: z.url().optional(),
  INSTAGRAM_APP_ID: z.string().optional(),
  INSTAGRAM_APP_SECRET: z.string().optional(),
  PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  SIMULATORS: z.enum(['on', 'off']).default('off'),
  // A profile's proxy on loopback/private/link-local addresses (SSRF guard); SIMULATORS=on turns it on.
  ALLOW_PRIVATE_PROXIES: z.enum(['true', 'false']).optional(),
  // Media links (signed, expiring): the HMAC key (derived from APP_KEY when unset) and the link lifetime.
  MEDIA_SIGNING_KEY: z.string().min(32).optional(),
  MEDIA_URL_TTL_SEC: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(6 * 3600),
  // Jobs and the render worker: parallel ffmpeg processes per worker process, job lease, queue poll interval.
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(defaultRenderConcurrency()),
  JOB_LEASE_SEC: z.coerce.number().int().min(5).max(3600).default(60),
  JOB_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  // Publishing: how far ahead a publication may be scheduled (a date beyond it is a 400 naming the field).
  PUBLISH_HORIZON_DAYS: z.coerce.number().int().min(1).max(36_500).default(PUBLISH_HORIZON_DAYS_DEFAULT),
  // The queue's stall rule: a job chain re-queued this many times in a row without progress goes dead.
  JOB_MAX_STALLS: z.coerce.number().int().min(1).max(100).default(5),
  JOB_STALL_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(1000),
  // The AI service (server/ai): its own port (else mounted on the API), chat drivers and video generation.
  AI_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  AI_GPT_DRIVER: z.enum(['api', 'browser']).default('api'),
  AI_GPT_BASE_URL: z.url().default('https://api.openai.com/v1'),
  AI_GPT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AI_DEEPSEEK_DRIVER: z.enum(['api', 'browser']).default('api'),
  AI_DEEPSEEK_BASE_URL: z.url().default('https://api.deepseek.com'),
  AI_DEEPSEEK_MODEL: z.string().min(1).default('deepseek-flash'),
  // The opt-in browser driver: the sites' base URLs ('' = the real sites), Debian's Chromium, contexts at once.
  AI_GPT_SITE_URL: z.union([z.url(), z.literal('')]).default(''),
  AI_DEEPSEEK_SITE_URL: z.union([z.url(), z.literal('')]).default(''),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  AI_BROWSER_MAX_CONTEXTS: z.coerce.number().int().min(1).max(50).default(5),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  AI_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  AI_HISTORY_TURNS: z.coerce.number().int().min(0).max(1000).default(40),
  AI_VIDEO_DIALECT: z.enum(['openrouter', 'openai-videos']).default('openrouter'),
  AI_VIDEO_BASE_URL: z.union([z.url(), z.literal('')]).default(''),
  AI_VIDEO_API_KEY: z.string().default(''),
  AI_VIDEO_MODEL: z.string().min(1).default('google/veo-3.1-fast'),
  AI_VIDEO_SECONDS: z.coerce.number().int().min(1).max(60).default(8),
  AI_VIDEO_SIZE: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/)
    .default('720x1280'),
  AI_VIDEO_BUDGET_SEC: z.coerce
    .number()
    .int()
    .min(10)
    .max(24 * 3600)
    .default(20 * 60),
  AI_VIDEO_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
});

/** Sign-in throttling (server/auth/login-throttle.ts). */
export type LoginLimits = { maxFailures: number; lockSec: number; maxDelayMs: number };

export type Config = {
  env: string;
  host: string;
  port: number;
  dataDir: string;
  mediaDir: string;
  databaseUrl?: string;
  sqliteFile: string;
  admin: { login: string; password?: string };
  jwtSecret: string;
  appKey: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  loginThrottle: LoginLimits;
  logLevel: string;
  /** Slow clients (server/http/slow-clients.ts). */
  clientTimeouts: ClientTimeouts;
  /** Lingering close after an early answer (server/http/lingering-close.ts). */
  lingering: LingerLimits;
  /** Per-user limits of expensive operations, counts per window (server/http/user-limits.ts). */
  userLimits: UserLimits;
  /** Fastify's trustProxy: the client address (login throttle, logs) comes from X-Forwarded-For only through these. */
  trustProxy: boolean | string;
  ffmpegPath: string;
  ffprobePath: string;
  publicUrl: string;
  runWorkers: boolean;
  panelDir: string;
  /** Platform drivers: base URLs, server app credentials; redirect URIs are `${publicUrl}/api/oauth/<platform>/callback`. */
  platforms: PlatformsConfig;
  /** Whole-request timeout of platform calls (the connect/handshake part gets at most 10 s). */
  platformTimeoutMs: number;
  /** Profiles may use a proxy on loopback, private or link-local addresses (refused by default: SSRF). */
  allowPrivateProxies: boolean;
  /** `npm run dev` with SIMULATORS=on starts the local platform simulators (main.ts). */
  simulators: boolean;
  /** HMAC key of signed media links (/api/media/<key>?exp&sig); never logged. */
  mediaSigningKey: string;
  /** How long a signed media link stays valid at least (rounded up to the hour). */
  mediaUrlTtlSec: number;
  /** Render worker: ffmpeg processes at once per worker process, one output each. */
  renderConcurrency: number;
  /** Job lease: a running job not renewed for this long is taken over by another worker (crash recovery). */
  jobLeaseSec: number;
  /** How often an idle worker looks for new jobs. */
  jobPollMs: number;
  /** How many days ahead a publication may be scheduled (src/contract/publications.ts, publicationCreateSchema). */
  publishHorizonDays: number;
  /**
   * The queue's stall rule (server/jobs/queue.ts): successors without progress in a row before a chain goes
   * dead, and the first of the growing delays they wait.
   */
  jobMaxStalls: number;
  jobStallBackoffMs: number;
  /** The AI service (server/ai/ai-config.ts). */
  ai: AiConfig;
};

/** A secret from the environment, or one generated once and kept in DATA_DIR (never logged). */
function persistedSecret(dataDir: string, file: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, secret + '\n', { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(overrides.dataDir ?? e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const port = overrides.port ?? e.PORT;
  const publicUrl = (overrides.publicUrl ?? e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port,
    dataDir,
    mediaDir: join(dataDir, 'media'),
    databaseUrl: e.DATABASE_URL,
    sqliteFile: join(dataDir, 'kadr.sqlite'),
    admin: { login: e.ADMIN_LOGIN ?? 'admin', password: e.ADMIN_PASSWORD },
    jwtSecret: persistedSecret(dataDir, 'jwt.secret', e.JWT_SECRET),
    appKey: persistedSecret(dataDir, 'app.key', e.APP_KEY),
    accessTokenTtlSec: e.ACCESS_TOKEN_TTL_SEC,
    refreshTokenTtlSec: e.REFRESH_TOKEN_TTL_SEC,
    loginThrottle: { maxFailures: e.LOGIN_MAX_FAILURES, lockSec: e.LOGIN_LOCK_SEC, maxDelayMs: e.LOGIN_MAX_DELAY_MS },
    logLevel: e.LOG_LEVEL,
    clientTimeouts: {
      headersMs: e.HEADERS_TIMEOUT_MS,
      bodyIdleMs: e.BODY_IDLE_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
      connectionIdleMs: e.CONNECTION_IDLE_TIMEOUT_MS,
    },
    lingering: { maxBytes: e.LINGER_MAX_BYTES, timeoutMs: e.LINGER_TIMEOUT_MS },
    userLimits: {
      windowMs: 3_600_000,
      max: {
        renders: e.LIMIT_RENDERS_PER_HOUR,
        publish: e.LIMIT_PUBLISH_PER_HOUR,
        ai: e.LIMIT_AI_PER_HOUR,
        uploads: e.LIMIT_UPLOADS_PER_HOUR,
      },
    },
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    runWorkers: e.WORKERS === 'on',
    panelDir: resolve('dist'),
    platforms: {
      youtube: {
        baseUrls: { auth: e.YOUTUBE_AUTH_BASE_URL, token: e.YOUTUBE_TOKEN_BASE_URL, api: e.YOUTUBE_API_BASE_URL },
        redirectUri: `${publicUrl}/api/oauth/youtube/callback`,
      },
      tiktok: {
        baseUrls: { auth: e.TIKTOK_AUTH_BASE_URL, api: e.TIKTOK_API_BASE_URL },
        redirectUri: `${publicUrl}/api/oauth/tiktok/callback`,
        clientKey: e.TIKTOK_CLIENT_KEY,
        clientSecret: e.TIKTOK_CLIENT_SECRET,
      },
      instagram: {
        baseUrls: { auth: e.INSTAGRAM_AUTH_BASE_URL, api: e.INSTAGRAM_API_BASE_URL, graph: e.INSTAGRAM_GRAPH_BASE_URL },
        redirectUri: `${publicUrl}/api/oauth/instagram/callback`,
        appId: e.INSTAGRAM_APP_ID,
        appSecret: e.INSTAGRAM_APP_SECRET,
      },
    },
    platformTimeoutMs: e.PLATFORM_TIMEOUT_MS,
    simulators: e.SIMULATORS === 'on',
    allowPrivateProxies: (e.ALLOW_PRIVATE_PROXIES ?? (e.SIMULATORS === 'on' ? 'true' : 'false')) === 'true',
    mediaSigningKey:
      e.MEDIA_SIGNING_KEY ??
      createHmac('sha256', persistedSecret(dataDir, 'app.key', e.APP_KEY))
        .update('kadr/media-links/v1')
        .digest('base64url'),
    mediaUrlTtlSec: e.MEDIA_URL_TTL_SEC,
    renderConcurrency: e.RENDER_CONCURRENCY,
    jobLeaseSec: e.JOB_LEASE_SEC,
    jobPollMs: e.JOB_POLL_MS,
    publishHorizonDays: e.PUBLISH_HORIZON_DAYS,
    jobMaxStalls: e.JOB_MAX_STALLS,
    jobStallBackoffMs: e.JOB_STALL_BACKOFF_MS,
    ai: {
      port: e.AI_PORT,
      providers: {
        gpt: { driver: e.AI_GPT_DRIVER, baseUrl: e.AI_GPT_BASE_URL, model: e.AI_GPT_MODEL, siteUrl: e.AI_GPT_SITE_URL },
        deepseek: {
          driver: e.AI_DEEPSEEK_DRIVER,
          baseUrl: e.AI_DEEPSEEK_BASE_URL,
          model: e.AI_DEEPSEEK_MODEL,
          siteUrl: e.AI_DEEPSEEK_SITE_URL,
        },
      },
      browser: { chromiumPath: e.CHROMIUM_PATH, maxContexts: e.AI_BROWSER_MAX_CONTEXTS },
      timeoutMs: e.AI_TIMEOUT_MS,
      maxRetries: e.AI_MAX_RETRIES,
      historyTurns: e.AI_HISTORY_TURNS,
      video: {
        dialect: e.AI_VIDEO_DIALECT,
        baseUrl: e.AI_VIDEO_BASE_URL.replace(/\/$/, ''),
        apiKey: e.AI_VIDEO_API_KEY,
        model: e.AI_VIDEO_MODEL,
        seconds: e.AI_VIDEO_SECONDS,
        size: e.AI_VIDEO_SIZE,
        budgetMs: e.AI_VIDEO_BUDGET_SEC * 1000,
        pollMs: e.AI_VIDEO_POLL_MS,
        pollMaxMs: 30_000,
      },
    },
    ...overrides,
  };
}
