/**
 * The one contract every platform implements (server/platforms/<platform>/<platform>.adapter.ts), listed in
 * server/platforms/registry.ts. The server around it is generic: the accounts domain connects a profile through
 * `driver` (authorization link, code exchange, token refresh, profile), the publish worker walks a post through
 * `publish` and `reconcile`, sorts a failure with `limitWait`, the quota counts by `limits`, the stats job reads
 * through `stats`, and the keep-alive refreshes every connected platform's grant through `driver`.
 */
import type { PlatformHttp } from './http';
import type { VideoStats } from './publish-types';
import type { PlatformCall, StepContext, StepResult } from './publish-step';
import type { PlatformSettings } from './settings';
import type { OAuthClientCredentials, PlatformCapabilities, PlatformDriver, PlatformError, PlatformId } from './types';

/** What a driver is built from: one profile's proxy-aware HTTP client and the OAuth client it signs in with. */
export interface DriverContext {
  http: PlatformHttp;
  settings: PlatformSettings;
  /** The profile's own OAuth client, for a platform whose `oauthClient` is 'profile'. */
  credentials?: OAuthClientCredentials;
  now?: () => Date;
}

/**
 * Posts a profile may make in a window, counted across every worker process (server/publishing/publish.quota.ts):
 * 'pacific-day' resets at midnight Pacific time (YouTube's quota day), 'rolling-24h' frees a slot when the
 * oldest post in the window turns 24 h old. `units` is an API-unit budget per window, spent by each post and by
 * the stats reads (YouTube's 10,000 units a day).
 */
export interface PostQuota {
  window: 'pacific-day' | 'rolling-24h';
  posts: number;
  units?: { perWindow: number; perPost: number };
}

/** How the stats job reads a platform's counters back. */
export interface StatsReading {
  /** Published rows read per pass. */
  batch: number;
  /** When the platform's quota counts units: ids one unit reads (the pass spends only the units left). */
  idsPerUnit?: number;
  read(call: PlatformCall, accessToken: string, ids: string[]): Promise<VideoStats[]>;
}

export interface PlatformAdapter {
  readonly id: PlatformId;
  /** The platform's own name (a brand name, the same in every language). */
  readonly label: string;
  readonly capabilities: PlatformCapabilities;
  /** Whose OAuth client signs a profile in: the server's app (settings) or each profile's own (SPEC: YouTube). */
  readonly oauthClient: 'server' | 'profile';
  /** The API path that answers a profile's authorization link (the spec names one per platform). */
  readonly connectPath: string;
  /** Authorization, code exchange, token refresh and profile reads through one profile's HTTP client. */
  driver(ctx: DriverContext): PlatformDriver;
  /** Whether the step finds a remote handle stored (an upload session, a container, a post): then it reconciles. */
  started(ctx: StepContext): boolean;
  /** The first steps of a post: the pre-flight gate, a quota slot, the first remote call with its handle stored. */
  publish(ctx: StepContext): Promise<StepResult>;
  /** A later step: asks the platform where the stored handle stands, then goes on; never repeats a public step. */
  reconcile(ctx: StepContext): Promise<StepResult>;
  /** A platform's own limit answer (a daily cap, a publish limit): when to look again; null for any other error. */
  limitWait(e: PlatformError, now: Date): Date | null;
  readonly limits: PostQuota;
  readonly stats: StatsReading;
}

/**
 * A limit answer recognised by its codes: after the platform's Retry-After when it gives one, else at `fallback`
 * (the end of the platform's window).
 */
export function waitOnCodes(codes: readonly string[], fallback: (now: Date) => Date): PlatformAdapter['limitWait'] {
  return (e, now) => {
    if (!e.code || !codes.includes(e.code)) return null;
    return e.retryAfterSec ? new Date(now.getTime() + e.retryAfterSec * 1000) : fallback(now);
  };
}

/** An hour from now: the window a platform's own post cap frees a slot in when it says nothing more precise. */
export const inAnHour = (now: Date) => new Date(now.getTime() + 3600_000);
