import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { PlatformsConfig } from './platforms/settings';
import type { AiConfig } from './config-ai';
import type { ClientTimeouts } from './http/slow-clients';
import type { LingerLimits } from './http/lingering-close';
import type { UserLimits } from './http/user-limits';
import { defaultRenderConcurrency } from './media/render/render-batch';
import type { StorageSettings } from './media/storage/index';
import { PUBLISH_HORIZON_DAYS_DEFAULT } from '../src/contract/publications';

export type { AiConfig, AiDriverKind, AiProviderConfig, VideoDialect } from './config-ai';

/** SIMULATOR_URL's hosts: Google on its port, TikTok on the next, Instagram on the one after (sim/dev.ts). */
function simulatorHosts(url: string | undefined): Partial<Record<'google' | 'tiktok' | 'instagram', string>> {
  if (!url) return {};
  const first = new URL(url);
  const at = (offset: number) => {
    const u = new URL(first);
    u.port = String(Number(first.port || (first.protocol === 'https:' ? 443 : 80)) + offset);
    return u.origin;
  };
  return { google: at(0), tiktok: at(1), instagram: at(2) };
}

/** A duration such as `90s`, `30m`, `12h` or `7d`. */
const DURATION = /^[1-9][0-9]{0,5}(s|m|h|d)$/;
const DURATION_TEXT = 'a duration such as `90s`, `30m`, `12h` or `7d`';
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A DURATION in milliseconds. */
export const durationMs = (text: string) => Number(text.slice(0, -1)) * UNIT_MS[text.slice(-1) as keyof typeof UNIT_MS];

/**
 * The one place that reads process.env: validated, typed, with defaults for a laptop. Each variable's
 * `.describe()` (and `defaultText` where the default is not a plain value) is what docs/configuration.md and
 * .env.example show: `npm run docs:config` writes them, tests/unit/config-doc.test.ts keeps them in step.
 */
export const EnvSchema = z.object({
  HOST: z.string().default('0.0.0.0').describe('The address panel and API listen on.'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('The port panel and API listen on.'),
  DATA_DIR: z
    .string()
    .default('data')
    .describe('Where the SQLite file, the media files and the generated secrets live (created when missing).'),
  DATABASE_URL: z
    .string()
    .optional()
    .describe(
      '`postgres://user:pass@host:5432/kadr` to use PostgreSQL; several API and worker processes can share one.',
    )
    .meta({ defaultText: 'unset (the embedded SQLite file `DATA_DIR/kadr.sqlite`)' }),
  STORAGE: z
    .enum(['local', 's3'])
    .default('local')
    .describe(
      'Where media files live (uploads, backgrounds, rendered videos): `local` under `DATA_DIR/media` on this ' +
        'machine; `s3` in an S3-compatible bucket (the `S3_*` variables) that every API and worker process shares ' +
        '(docs/storage.md).',
    ),
  S3_ENDPOINT: z
    .url()
    .optional()
    .describe('The S3 API address of an S3-compatible server (MinIO, Ceph, Garage, R2, …), e.g. `http://minio:9000`.')
    .meta({ defaultText: 'unset (AWS S3 in `S3_REGION`)' }),
  S3_REGION: z.string().min(2).default('us-east-1').describe('The region requests are signed for.'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
    .optional()
    .describe('The bucket (it must exist); required with `STORAGE=s3`.'),
  S3_ACCESS_KEY_ID: z
    .string()
    .optional()
    .describe('The access key; set it together with `S3_SECRET_ACCESS_KEY`.')
    .meta({
      defaultText: "unset (the AWS SDK's own chain: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, shared files, a role)",
    }),
  S3_SECRET_ACCESS_KEY: z.string().optional().describe('The secret key of `S3_ACCESS_KEY_ID`; never logged.'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .describe(
      '`true` addresses objects as `endpoint/bucket/key` (MinIO and most self-hosted servers need it); `false` as ' +
        '`bucket.endpoint/key` (AWS).',
    ),
  S3_PART_SIZE_MB: z.coerce
    .number()
    .int()
    .min(5)
    .max(512)
    .default(8)
    .describe('Part size of multipart uploads, in MiB (a file of one part or less is one PUT).'),
  S3_UPLOAD_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(4)
    .describe(
      'Parts one upload sends at once; memory per running upload is about (this + 1) × the part size, whatever the file size.',
    ),
  S3_STALE_UPLOAD_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(6)
    .describe(
      "A multipart upload still unfinished this many hours after it started is taken for a killed process's: the " +
        'workers abort it (at start and hourly). Longer than the slowest upload.',
    ),
  ADMIN_LOGIN: z
    .string()
    .min(2)
    .max(50)
    .optional()
    .describe('The first admin, created only when there are no users yet.')
    .meta({ defaultText: '`admin`' }),
  ADMIN_PASSWORD: z
    .string()
    .min(6)
    .max(50)
    .optional()
    .describe("The first admin's password, used only when there are no users yet.")
    .meta({ defaultText: 'random, printed once in the terminal' }),
  APP_KEY: z
    .string()
    .optional()
    .describe(
      'The key that seals platform secrets at rest (AES-256-GCM under a key derived by HKDF) and signs OAuth `state`; ' +
        'set it explicitly in production. Starting with another key than the database was sealed with stops with an error.',
    )
    .meta({ defaultText: 'generated once into `DATA_DIR/app.key` (SQLite only: required with `DATABASE_URL`)' }),
  JWT_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe('Signs access tokens.')
    .meta({ defaultText: 'generated once into `DATA_DIR/jwt.secret` (SQLite only: required with `DATABASE_URL`)' }),
  ACCESS_TOKEN_TTL_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60)
    .describe('Lifetime of an access token (a short-lived JWT), in seconds.'),
  REFRESH_TOKEN_TTL_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600)
    .describe('Lifetime of a refresh token (rotated on every refresh), in seconds.'),
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe(
      'Turns on `GET /metrics` (Prometheus text format: queue depth, claim lag, job durations, HTTP latency, process ' +
        'memory), readable only with `Authorization: Bearer <token>`; at least 16 characters; a worker process serves ' +
        'it on `HEALTH_PORT`. Unset: no `/metrics`.',
    )
    .meta({ defaultText: 'unset (no `/metrics`)' }),
  LOGIN_MAX_FAILURES: z.coerce
    .number()
    .int()
    .positive()
    .default(5)
    .describe(
      'Failed sign-ins per login from one address (ten times as many per address across logins) before that ' +
        'address is locked out.',
    ),
  LOGIN_LOCK_SEC: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60)
    .describe('How long after the last failure the lock and the failure counts last, in seconds.'),
  LOGIN_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(10_000)
    .describe(
      'The longest delay before a password is checked for a login failing from many addresses (no lock there: ' +
        'the delay starts at 0.5 s at the fifth failure and doubles).',
    ),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9a-fA-F.:/, ]+)$/, 'true, false, or addresses/CIDRs')
    .default('false')
    .describe(
      'Behind a reverse proxy: `true` (any) or the proxies’ addresses/CIDRs, so the client address (sign-in ' +
        'lock, logs) is read from `X-Forwarded-For`; `false` ignores that header, so it cannot dodge the lock.',
    ),
  HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(20_000)
    .describe("A request's line and headers must arrive within this."),
  BODY_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(30_000)
    .describe(
      'A request body that brings no new bytes for this long (while the server is ready to read) closes the ' +
        'connection; a slow but moving upload has no overall limit.',
    ),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(72_000)
    .describe('An idle keep-alive connection is closed after this.'),
  CONNECTION_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(600_000)
    .describe(
      "A connection with no traffic either way for this long is closed (a backstop; long answers such as a 1 GB upload's checks fit in it).",
    ),
  LINGER_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_073_741_824)
    .default(4_194_304)
    .describe(
      'Lingering close: after an answer sent before the body was read (a refused upload, a 401/404/413/429), ' +
        'the server reads and discards up to this many more body bytes so the client hears the answer, then cuts the connection.',
    ),
  LINGER_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(5_000)
    .describe(
      'Lingering close: how long after such an answer the rest of the body may take before the connection is cut.',
    ),
  LIMIT_RENDERS_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(300)
    .describe(
      'Create-video requests (clip uploads) one user may send in an hour; past it a 429 with `Retry-After` names ' +
        'the limit and when it frees. `0` = no limit.',
    ),
  LIMIT_PUBLISH_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(600)
    .describe(
      "Publications one user may create, edit or publish again (an AI video's publication too) in an hour. `0` = no limit.",
    ),
  LIMIT_AI_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(1_000)
    .describe(
      'AI chat and video-generation calls (`type`, `type-deepseek`, `video`, `recreate`) one user may make in an ' +
        'hour. `0` = no limit.',
    ),
  LIMIT_UPLOADS_PER_HOUR: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(600)
    .describe('Uploads (background files, create-video clips) one user may send in an hour. `0` = no limit.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('The pino log level (`silent` mutes it); passwords and tokens are redacted.'),
  FFMPEG_PATH: z.string().default('ffmpeg').describe('The ffmpeg binary (renders, previews).'),
  FFPROBE_PATH: z.string().default('ffprobe').describe('The ffprobe binary (upload checks, the pre-flight gate).'),
  PUBLIC_URL: z
    .string()
    .optional()
    .describe(
      'The address the panel is reached at: OAuth callbacks (`$PUBLIC_URL/api/oauth/<platform>/callback`) and ' +
        'the signed media link Instagram fetches a Reel from, so it must be reachable from the internet for ' +
        'Instagram publishing.',
    )
    .meta({ defaultText: '`http://localhost:$PORT`' }),
  PROCESS_ROLE: z
    .enum(['all', 'api', 'worker'])
    .optional()
    .describe(
      'What this process runs: `all` the panel, the API and the job runner in one process (the embedded shape); ' +
        '`api` the panel and the API without a job runner (it only enqueues jobs); `worker` the job runner with no ' +
        'public HTTP, only `GET /health/live` and `GET /health/ready` (and `/metrics`) on `HEALTH_PORT`. Any number of `api` and ' +
        '`worker` processes can share one PostgreSQL (docs/operations.md).',
    )
    .meta({ defaultText: '`all` (`api` with `WORKERS=off`)' }),
  WORKERS: z
    .enum(['on', 'off'])
    .optional()
    .describe('The older spelling of `PROCESS_ROLE`: `off` is `PROCESS_ROLE=api`, `on` is `PROCESS_ROLE=all`.')
    .meta({ defaultText: '`on`' }),
  HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe(
      'The port a `PROCESS_ROLE=worker` process serves `GET /health/live` and `GET /health/ready` on (required ' +
        'there); ignored by the other roles, which answer those paths on `PORT`.',
    )
    .meta({ defaultText: 'unset (required with `PROCESS_ROLE=worker`)' }),
  WORKER_KINDS: z
    .string()
    .regex(/^\s*[a-z][a-z0-9._-]*\s*(,\s*[a-z][a-z0-9._-]*\s*)*$/, 'a comma-separated list of job kinds')
    .optional()
    .describe(
      "The job kinds this process's runner takes, comma-separated (`video.render`, `accounts.keep-alive`, " +
        '`publication.publish`, `publication.stats`, `ai.video.generate`); an unknown kind stops the start with an error.',
    )
    .meta({ defaultText: 'every kind' }),
  WORKER_CONCURRENCY: z
    .string()
    .regex(
      /^\s*[a-z][a-z0-9._-]*\s*=\s*[1-9][0-9]*\s*(,\s*[a-z][a-z0-9._-]*\s*=\s*[1-9][0-9]*\s*)*$/,
      '`kind=n,kind=n` with n ≥ 1',
    )
    .optional()
    .describe(
      'How many jobs of a kind this process runs at once, as `kind=n,kind=n` (e.g. `video.render=2`); kinds not ' +
        'named keep their default. A render already runs `RENDER_CONCURRENCY` ffmpeg processes.',
    )
    .meta({ defaultText: 'each kind its own: `video.render` 1, `accounts.keep-alive` 1, the others 4' }),
  YOUTUBE_AUTH_BASE_URL: z
    .url()
    .optional()
    .describe("Google's OAuth host (tests point the platform hosts at the simulators).")
    .meta({ defaultText: '`https://accounts.google.com`' }),
  YOUTUBE_TOKEN_BASE_URL: z
    .url()
    .optional()
    .describe("Google's OAuth token host.")
    .meta({ defaultText: '`https://oauth2.googleapis.com`' }),
  YOUTUBE_API_BASE_URL: z
    .url()
    .optional()
    .describe("The YouTube Data API host. The OAuth client is each profile's own client_id / client_secret.")
    .meta({ defaultText: '`https://www.googleapis.com`' }),
  TIKTOK_AUTH_BASE_URL: z
    .url()
    .optional()
    .describe('The TikTok Login Kit host.')
    .meta({ defaultText: '`https://www.tiktok.com`' }),
  TIKTOK_API_BASE_URL: z
    .url()
    .optional()
    .describe('The TikTok API host.')
    .meta({ defaultText: '`https://open.tiktokapis.com`' }),
  TIKTOK_CLIENT_KEY: z
    .string()
    .optional()
    .describe("The server's TikTok app; without it the TikTok authorization link answers a readable error."),
  TIKTOK_CLIENT_SECRET: z.string().optional().describe("The server's TikTok app secret."),
  INSTAGRAM_AUTH_BASE_URL: z
    .url()
    .optional()
    .describe('The Instagram Login host.')
    .meta({ defaultText: '`https://www.instagram.com`' }),
  INSTAGRAM_API_BASE_URL: z
    .url()
    .optional()
    .describe('The Instagram API host (token exchange).')
    .meta({ defaultText: '`https://api.instagram.com`' }),
  INSTAGRAM_GRAPH_BASE_URL: z
    .url()
    .optional()
    .describe('The Instagram Graph API host.')
    .meta({ defaultText: '`https://graph.instagram.com`' }),
  INSTAGRAM_APP_ID: z.string().optional().describe("The server's Instagram app (Instagram API with Instagram Login)."),
  INSTAGRAM_APP_SECRET: z.string().optional().describe("The server's Instagram app secret."),
  PLATFORM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(20_000)
    .describe(
      "Limit of one platform call through a profile's proxy (the connect/handshake part gets at most 10 s), so a " +
        'bad proxy is an error, not a hang.',
    ),
  SIMULATORS: z
    .enum(['on', 'off'])
    .default('off')
    .describe(
      '`on` makes `npm start` / `npm run dev` start local YouTube, TikTok, Instagram and AI simulators first ' +
        '(sim/, through scripts/serve.ts) and point the server at them; the server never loads simulator code.',
    ),
  SIMULATOR_URL: z
    .url()
    .optional()
    .describe(
      'Points every platform base URL at one simulator host (`npm run sim`): Google on its port, TikTok on the ' +
        'next, Instagram on the one after. A platform base URL set on its own still wins. Development and tests only.',
    ),
  ALLOW_PRIVATE_PROXIES: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      "`true` lets a profile's proxy be on loopback, a private, CGNAT or link-local network (a local proxy for " +
        'development); otherwise such a proxy is refused (server-side request forgery guard).',
    )
    .meta({ defaultText: '`false` (`true` with `SIMULATORS=on`)' }),
  ALLOW_PRIVATE_WEBHOOKS: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      '`true` lets a webhook URL point at loopback, a private, CGNAT or link-local network (a local listener for ' +
        'development and tests); otherwise such a URL is refused (server-side request forgery guard).',
    )
    .meta({ defaultText: '`false` (`true` with `SIMULATORS=on`)' }),
  API_KEY_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(120)
    .describe(
      'Requests one API key may make per minute (counted in the database, shared by every API process); more ' +
        'are answered 429 with Retry-After.',
    ),
  MEDIA_SIGNING_KEY: z
    .string()
    .min(32)
    .optional()
    .describe('HMAC key of signed media links (`/api/media/<key>?exp&sig`); changing it invalidates the links issued.')
    .meta({ defaultText: 'derived from `APP_KEY`' }),
  MEDIA_URL_TTL_SEC: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(6 * 3600)
    .describe(
      'How long a media link stays valid at least, in seconds (expiry is rounded up to the hour so links stay cacheable).',
    ),
  RENDER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(defaultRenderConcurrency())
    .describe(
      'ffmpeg processes one worker process runs at once, one output each with a single-threaded x264 (a lone ' +
        'output keeps x264’s threads); measured fastest on 2 cores (`npm run bench`).',
    )
    .meta({ defaultText: 'twice the CPU cores, 2 to 8' }),
  JOB_LEASE_SEC: z.coerce
    .number()
    .int()
    .min(5)
    .max(3600)
    .default(60)
    .describe('Job lease: a running job whose worker stops renewing it (a crash) is taken over after this long.'),
  JOB_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(1000)
    .describe('How often an idle worker looks for due jobs.'),
  JOBS_KEEP_FINISHED: z
    .string()
    .regex(DURATION, DURATION_TEXT)
    .default('7d')
    .describe(
      'How long a finished (`done`) job stays in the queue table (the Jobs screen shows it, and its key still ' +
        'refuses the same work twice); older ones are removed in small batches by every worker process.',
    ),
  JOBS_KEEP_DEAD: z
    .string()
    .regex(DURATION, DURATION_TEXT)
    .default('30d')
    .describe(
      'How long a `dead` job stays (for an admin to read its reason and retry it) before it is removed like a ' +
        'finished one; a retried job is queued again and kept.',
    ),
  PUBLISH_HORIZON_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500)
    .default(PUBLISH_HORIZON_DAYS_DEFAULT)
    .describe(
      'How many days ahead a publication (and each of its videos) may be dated; a later date is a 400 naming the ' +
        'field, and the publish form says so as it is typed (every date must also lie in the years 2000–2100).',
    ),
  JOB_MAX_STALLS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(5)
    .describe(
      'A job chain (a job queuing its own next look) re-queued this many times in a row at or before its previous ' +
        'run_at with no change of state goes dead with the reason, instead of looping.',
    ),
  JOB_STALL_BACKOFF_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600_000)
    .default(1000)
    .describe(
      "The first delay a stalled re-queue waits past its predecessor's run_at; it doubles with each stall in a row (up to 10 min).",
    ),
  RETENTION_CLIP_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(36_500)
    .optional()
    .describe(
      'Remove the uploaded clip of a create-video request this many days after its render finished or failed ' +
        '(0: at the next retention pass); the request and its videos stay. The rules: [retention.md](retention.md).',
    )
    .meta({ defaultText: 'unset (clips are kept)' }),
  RETENTION_UNPUBLISHED_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500)
    .optional()
    .describe(
      "Remove a rendered video's file this many days after its render ended when it was never published and no " +
        'publication of it is scheduled or on its way; the panel shows it as removed.',
    )
    .meta({ defaultText: 'unset (kept)' }),
  RETENTION_PUBLISHED_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(36_500)
    .optional()
    .describe(
      "Remove a published video's file this many days after it was published, once none of its publications is " +
        'scheduled or on its way (the post on the platform stays).',
    )
    .meta({ defaultText: 'unset (kept)' }),
  RETENTION_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(100)
    .describe(
      'Objects the hourly retention pass removes (or measures) per batch; a pass works through at most 20 batches ' +
        'per kind and the next one goes on.',
    ),
  AI_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('The AI service on a port of its own (with CORS for `PUBLIC_URL`’s origin only).')
    .meta({ defaultText: "unset (mounted on the API's origin)" }),
  AI_GPT_DRIVER: z
    .enum(['api', 'browser'])
    .default('api')
    .describe("GPT's chat driver: the OpenAI-compatible API, or the opt-in web chat in Chromium."),
  AI_GPT_BASE_URL: z.url().default('https://api.openai.com/v1').describe("GPT's OpenAI-compatible endpoint."),
  AI_GPT_MODEL: z.string().min(1).default('gpt-4o-mini').describe("GPT's model."),
  AI_DEEPSEEK_DRIVER: z
    .enum(['api', 'browser'])
    .default('api')
    .describe("DeepSeek's chat driver: the OpenAI-compatible API, or the opt-in web chat in Chromium."),
  AI_DEEPSEEK_BASE_URL: z.url().default('https://api.deepseek.com').describe("DeepSeek's OpenAI-compatible endpoint."),
  AI_DEEPSEEK_MODEL: z
    .string()
    .min(1)
    .default('deepseek-flash')
    .describe("DeepSeek's model (model ids change: DeepSeek renamed them twice in 2026)."),
  AI_GPT_SITE_URL: z
    .union([z.url(), z.literal('')])
    .default('')
    .describe('The web chat the GPT browser driver logs in to.')
    .meta({ defaultText: 'empty (the real site, `https://chatgpt.com`)' }),
  AI_DEEPSEEK_SITE_URL: z
    .union([z.url(), z.literal('')])
    .default('')
    .describe('The web chat the DeepSeek browser driver logs in to.')
    .meta({ defaultText: 'empty (the real site, `https://chat.deepseek.com`)' }),
  CHROMIUM_PATH: z
    .string()
    .min(1)
    .default('/usr/bin/chromium')
    .describe(
      "Debian's Chromium, for the AI browser driver and the browser tests (`npm test` installs it, `npm start` does not).",
    ),
  AI_BROWSER_MAX_CONTEXTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(5)
    .describe(
      'Browser-driver sessions open at once; opening another closes the least recently used idle one (its state saved).',
    ),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000).describe('One chat call’s limit.'),
  AI_MAX_RETRIES: z.coerce
    .number()
    .int()
    .min(0)
    .max(5)
    .default(1)
    .describe('How many times the SDK retries a chat call on 429/5xx.'),
  AI_HISTORY_TURNS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(40)
    .describe('Stored chat turns sent back to the model with a new message (the newest).'),
  AI_VIDEO_DIALECT: z
    .enum(['openrouter', 'openai-videos'])
    .default('openrouter')
    .describe("The video provider's wire format: OpenRouter's `/videos`, or the older OpenAI `/v1/videos`."),
  AI_VIDEO_BASE_URL: z
    .union([z.url(), z.literal('')])
    .default('')
    .describe('The video provider, e.g. `https://openrouter.ai/api/v1`.')
    .meta({ defaultText: 'empty (video generation not configured: its requests answer "not configured")' }),
  AI_VIDEO_API_KEY: z.string().default('').describe("The video provider's API key."),
  AI_VIDEO_MODEL: z.string().min(1).default('google/veo-3.1-fast').describe('The video model.'),
  AI_VIDEO_SECONDS: z.coerce.number().int().min(1).max(60).default(8).describe("The requested clip's length."),
  AI_VIDEO_SIZE: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/)
    .default('720x1280')
    .describe("The requested clip's size, width x height."),
  AI_VIDEO_BUDGET_SEC: z.coerce
    .number()
    .int()
    .min(10)
    .max(24 * 3600)
    .default(20 * 60)
    .describe('How long one generation may take, polls included, in seconds.'),
  AI_VIDEO_POLL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(600_000)
    .default(5000)
    .describe('The first poll delay of a generation; it doubles up to 30 s.'),
});

/** What one process runs: everything (the embedded shape), the API only, or the job runner only. */
export type ProcessRole = 'all' | 'api' | 'worker';

/** Sign-in throttling (server/auth/login-throttle.ts). */
export type LoginLimits = { maxFailures: number; lockSec: number; maxDelayMs: number };

/** Read-only all the way down (the loaded configuration is frozen so). */
type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The configuration as loaded: frozen, never changed afterwards (a test that needs another builds another). */
export type Config = DeepReadonly<ConfigFields>;

/** What RETENTION_* configure (server/retention): days per rule, undefined = that media is kept; objects per batch. */
export type RetentionSettings = {
  clipDays?: number;
  unpublishedDays?: number;
  publishedDays?: number;
  batch: number;
};

type ConfigFields = {
  host: string;
  port: number;
  dataDir: string;
  mediaDir: string;
  /** Where media bytes live: local disk under mediaDir, or an S3-compatible bucket (server/media/storage). */
  storage: StorageSettings;
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
  /** The bearer token of GET /metrics (server/metrics); undefined: no /metrics route. */
  metricsToken?: string;
  ffmpegPath: string;
  ffprobePath: string;
  publicUrl: string;
  /** PROCESS_ROLE (or the older WORKERS=off): what this process runs (server/main.ts). */
  role: ProcessRole;
  /** A worker process's port for /health/live and /health/ready; set whenever role is worker. */
  healthPort?: number;
  /** The job runner's kinds (undefined: every kind) and per-kind limits (server/jobs/runner-plan.ts). */
  workerKinds?: string[];
  workerConcurrency: Record<string, number>;
  panelDir: string;
  /** Platform drivers: base URLs, server app credentials; redirect URIs are `${publicUrl}/api/oauth/<platform>/callback`. */
  platforms: PlatformsConfig;
  /** Whole-request timeout of platform calls (the connect/handshake part gets at most 10 s). */
  platformTimeoutMs: number;
  /** Profiles may use a proxy on loopback, private or link-local addresses (refused by default: SSRF). */
  allowPrivateProxies: boolean;
  /** Webhook URLs may point at loopback, private or link-local addresses (refused by default: SSRF). */
  allowPrivateWebhooks: boolean;
  /** Requests per minute one API key may make (server/api-keys). */
  apiKeyRateLimit: number;
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
  /** How long finished and dead jobs stay in the queue table before the prune removes them (server/jobs/prune.ts). */
  jobsKeep: { finishedMs: number; deadMs: number };
  /** Media retention (server/media/retention): days per rule (undefined: that media is kept), objects per batch. */
  retention: RetentionSettings;
  /** The AI service (its types: server/config-ai.ts). */
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

/** A comma list (`a, b`) as its trimmed items. */
const items = (list: string) => list.split(',').map((s) => s.trim());

/**
 * PROCESS_ROLE (WORKERS=off being its older spelling of `api`), HEALTH_PORT, WORKER_KINDS and WORKER_CONCURRENCY;
 * the kind names are checked against the job catalogue when the runner is planned (server/jobs/runner-plan.ts).
 */
function processShape(
  e: z.infer<typeof EnvSchema>,
  overrides: Partial<Config>,
): Pick<ConfigFields, 'role' | 'healthPort' | 'workerKinds' | 'workerConcurrency'> {
  const role: ProcessRole = e.PROCESS_ROLE ?? (e.WORKERS === 'off' ? 'api' : 'all');
  const healthPort = overrides.healthPort ?? e.HEALTH_PORT;
  const problems = [
    ...(e.PROCESS_ROLE && e.WORKERS && (e.WORKERS === 'off') !== (e.PROCESS_ROLE === 'api')
      ? [`WORKERS: WORKERS=${e.WORKERS} contradicts PROCESS_ROLE=${e.PROCESS_ROLE} (set PROCESS_ROLE only)`]
      : []),
    ...(role === 'worker' && healthPort === undefined ? ['HEALTH_PORT: required when PROCESS_ROLE=worker'] : []),
  ];
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    role,
    healthPort: role === 'worker' ? healthPort : undefined,
    workerKinds: e.WORKER_KINDS === undefined ? undefined : items(e.WORKER_KINDS),
    workerConcurrency: Object.fromEntries(
      (e.WORKER_CONCURRENCY === undefined ? [] : items(e.WORKER_CONCURRENCY)).map((pair) => {
        const [kind, n] = pair.split('=').map((s) => s.trim());
        return [kind!, Number(n)];
      }),
    ),
  };
}

/**
 * On PostgreSQL every process (on any machine) must seal and sign with the same keys: they must be given, since
 * a key generated into DATA_DIR would differ per machine (it only serves the embedded SQLite default).
 */
function requireSharedSecrets(e: z.infer<typeof EnvSchema>, overrides: Partial<Config>) {
  const databaseUrl = overrides.databaseUrl ?? e.DATABASE_URL;
  if (!databaseUrl) return;
  const missing = [
    ...(e.APP_KEY || overrides.appKey ? [] : ['APP_KEY']),
    ...(e.JWT_SECRET || overrides.jwtSecret ? [] : ['JWT_SECRET']),
  ];
  if (missing.length)
    throw new Error(
      `Invalid configuration:\n  ${missing.join(', ')}: required with DATABASE_URL (PostgreSQL): every process ` +
        'sharing the database must be given the same value; one generated into DATA_DIR serves only the embedded ' +
        'SQLite default',
    );
}

/** STORAGE and the S3_* variables; S3 needs a bucket, and a key id and secret go together. */
function storageSettings(e: z.infer<typeof EnvSchema>): StorageSettings {
  if (e.STORAGE === 'local') return { kind: 'local' };
  const problems = [
    ...(e.S3_BUCKET ? [] : ['S3_BUCKET: required when STORAGE=s3']),
    ...(!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY
      ? ['S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither']
      : []),
  ];
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET!,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    partSize: e.S3_PART_SIZE_MB * 1024 * 1024,
    queueSize: e.S3_UPLOAD_CONCURRENCY,
    staleUploadMs: e.S3_STALE_UPLOAD_HOURS * 3600_000,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return frozen(structuredClone(readConfig(env, overrides)));
}

/** Freezes `value` and everything it holds. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}

function readConfig(env: NodeJS.ProcessEnv, overrides: Partial<Config>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  requireSharedSecrets(e, overrides);
  const dataDir = resolve(overrides.dataDir ?? e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const port = overrides.port ?? e.PORT;
  const publicUrl = (overrides.publicUrl ?? e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const sim = simulatorHosts(e.SIMULATOR_URL);
  return {
    host: e.HOST,
    port,
    dataDir,
    mediaDir: join(dataDir, 'media'),
    storage: storageSettings(e),
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
    metricsToken: e.METRICS_TOKEN,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    ...processShape(e, overrides),
    panelDir: resolve('dist'),
    platforms: {
      youtube: {
        baseUrls: {
          auth: e.YOUTUBE_AUTH_BASE_URL ?? sim.google,
          token: e.YOUTUBE_TOKEN_BASE_URL ?? sim.google,
          api: e.YOUTUBE_API_BASE_URL ?? sim.google,
        },
        redirectUri: `${publicUrl}/api/oauth/youtube/callback`,
      },
      tiktok: {
        baseUrls: { auth: e.TIKTOK_AUTH_BASE_URL ?? sim.tiktok, api: e.TIKTOK_API_BASE_URL ?? sim.tiktok },
        redirectUri: `${publicUrl}/api/oauth/tiktok/callback`,
        clientId: e.TIKTOK_CLIENT_KEY,
        clientSecret: e.TIKTOK_CLIENT_SECRET,
      },
      instagram: {
        baseUrls: {
          auth: e.INSTAGRAM_AUTH_BASE_URL ?? sim.instagram,
          api: e.INSTAGRAM_API_BASE_URL ?? sim.instagram,
          graph: e.INSTAGRAM_GRAPH_BASE_URL ?? sim.instagram,
        },
        redirectUri: `${publicUrl}/api/oauth/instagram/callback`,
        clientId: e.INSTAGRAM_APP_ID,
        clientSecret: e.INSTAGRAM_APP_SECRET,
      },
    },
    platformTimeoutMs: e.PLATFORM_TIMEOUT_MS,
    allowPrivateProxies: (e.ALLOW_PRIVATE_PROXIES ?? (e.SIMULATORS === 'on' ? 'true' : 'false')) === 'true',
    allowPrivateWebhooks: (e.ALLOW_PRIVATE_WEBHOOKS ?? (e.SIMULATORS === 'on' ? 'true' : 'false')) === 'true',
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
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
    jobsKeep: { finishedMs: durationMs(e.JOBS_KEEP_FINISHED), deadMs: durationMs(e.JOBS_KEEP_DEAD) },
    retention: {
      clipDays: e.RETENTION_CLIP_DAYS,
      unpublishedDays: e.RETENTION_UNPUBLISHED_DAYS,
      publishedDays: e.RETENTION_PUBLISHED_DAYS,
      batch: e.RETENTION_BATCH,
    },
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
