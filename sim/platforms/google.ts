/**
 * Google OAuth 2.0 + YouTube Data API v3 simulator (the parts the YouTube driver uses).
 *
 * Endpoints (one host stands for accounts.google.com, oauth2.googleapis.com and www.googleapis.com):
 *   GET  /o/oauth2/v2/auth            consent: 302 to redirect_uri ?state&code&scope, or ?error=access_denied&state
 *   POST /token                       authorization_code and refresh_token grants; Google's error bodies
 *   POST /revoke?token=               revokes a token and its grant
 *   /youtube/v3/channels              channels.list and channels.update (./youtube-data-api.ts)
 *   /upload/youtube/v3/videos         videos.insert, resumable (./youtube-publish.ts)
 *   /youtube/v3/videos, playlistItems videos.list and the uploads playlist (./youtube-videos.ts)
 */
import {
  SimState,
  htmlError,
  randomToken,
  redirectTo,
  startSimServer,
  withSimControls,
  type SimControls,
  type SimReply,
  type SimRequest,
} from './common';
import { googleApiError, quotaSpender, youtubeChannelRoutes, type SimChannel } from './youtube-data-api';
import { youtubeUploadRoutes, type YouTubeUploadControls } from './youtube-publish';
import { youtubeVideoRoutes, youtubeVideosState, type YouTubeVideosState } from './youtube-videos';

export type { SimChannel } from './youtube-data-api';
export type { SimChunkFault, SimUploadChunk, SimUploadSession } from './youtube-publish';
export type { SimVideo } from './youtube-videos';

export interface GoogleSimulatorOptions {
  port?: number;
  /** Access token lifetime in seconds (Google: 3599). */
  accessTtlSec?: number;
  /** "Testing" publishing status: refresh tokens die after 7 days. */
  testingMode?: boolean;
  /** Known clients; when set, unknown ids and wrong secrets are refused. Otherwise any client is accepted. */
  clients?: Record<string, string>;
  channel?: Partial<SimChannel>;
  /** Daily quota in units (default 10,000). */
  dailyQuota?: number;
  /** False: uploads are counted but not hashed (`SimVideo.sha256` empty), for throughput benches. Default true. */
  hashUploads?: boolean;
}

interface Grant {
  clientId: string;
  scope: string[];
  refreshToken: string;
  createdAt: number;
  revoked: boolean;
}

interface AccessToken {
  grant: Grant;
  expiresAt: number;
}

export interface GoogleSimulator extends SimControls, YouTubeVideosState, YouTubeUploadControls {
  registerClient(clientId: string, clientSecret: string): void;
  /** The simulated channel (live object: tests may read and change it). */
  channel: SimChannel;
  /** Set false to simulate a Google account without a YouTube channel. */
  hasChannel: boolean;
  quotaUsed: number;
}

/** Gives `target` every field of `source`, read and written through to `source` (so its routes see changes). */
function forward<T extends object, S extends object>(target: T, source: S): T & S {
  const from = source as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    Object.defineProperty(target, key, {
      get: () => from[key],
      set: (v: unknown) => (from[key] = v),
      enumerable: true,
    });
  }
  return target as T & S;
}

const tokenError = (status: number, error: string, description: string): SimReply => ({
  status,
  body: { error, error_description: description },
});

export async function startGoogleSimulator(opts: GoogleSimulatorOptions = {}): Promise<GoogleSimulator> {
  const ctl = new SimState();
  const clock = ctl.clock;
  const accessTtl = opts.accessTtlSec ?? 3599;
  const clients = new Map(Object.entries(opts.clients ?? {}));
  const strictClients = opts.clients !== undefined;
  const codes = new Map<
    string,
    { clientId: string; redirectUri: string; scope: string[]; expiresAt: number; used: boolean }
  >();
  const grants = new Map<string, Grant>(); // by refresh token
  const tokens = new Map<string, AccessToken>();
  const dailyQuota = opts.dailyQuota ?? 10_000;

  const sim = {
    channel: {
      id: 'UC' + randomToken('', 16).replace(/[-_]/g, 'x').slice(0, 22),
      title: 'Kadr Sim Channel',
      description: 'Channel description from the simulator',
      customUrl: '@kadrsim',
      country: 'UA',
      keywords: 'kadr shorts simulator',
      defaultLanguage: 'uk',
      viewCount: 12345,
      subscriberCount: 678,
      videoCount: 9,
      ...opts.channel,
    } as SimChannel,
    hasChannel: true,
    quotaUsed: 0,
  };

  const clientOk = (id: string | null, secret: string | null): boolean => {
    if (!id) return false;
    if (!strictClients && !clients.has(id)) return true;
    return clients.get(id) === secret;
  };

  const authorize = (r: SimRequest): SimReply => {
    const q = r.query;
    const clientId = q.get('client_id');
    const redirectUri = q.get('redirect_uri');
    if (!clientId) return htmlError(400, 'Error 400: invalid_request. Missing required parameter: client_id');
    if (strictClients && !clients.has(clientId))
      return htmlError(401, 'Error 401: invalid_client. The OAuth client was not found.');
    if (!redirectUri) return htmlError(400, 'Error 400: invalid_request. Missing required parameter: redirect_uri');
    if (q.get('response_type') !== 'code') return htmlError(400, 'Error 400: invalid_request. Invalid response_type');
    const scope = (q.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (!scope.length) return htmlError(400, 'Error 400: invalid_request. Missing required parameter: scope');
    const state = q.get('state') ?? undefined;
    const granted = ctl.consent(scope, q.get('sim_deny') === '1');
    if (!granted) {
      return redirectTo(redirectUri, { error: 'access_denied', state });
    }
    const code = randomToken('4/0A', 24);
    codes.set(code, { clientId, redirectUri, scope: granted, expiresAt: clock.now() + 10 * 60_000, used: false });
    return redirectTo(redirectUri, { state, code, scope: granted.join(' ') });
  };

  const issueAccess = (grant: Grant) => {
    const accessToken = randomToken('ya29.sim-', 30);
    tokens.set(accessToken, { grant, expiresAt: clock.now() + accessTtl * 1000 });
    return accessToken;
  };

  const token = (r: SimRequest): SimReply => {
    if (!/x-www-form-urlencoded/i.test(String(r.headers['content-type'] ?? ''))) {
      return tokenError(400, 'invalid_request', 'Invalid Content-Type: expected application/x-www-form-urlencoded');
    }
    const f = r.form;
    const clientId = f.get('client_id');
    if (!clientOk(clientId, f.get('client_secret')) || !f.get('client_secret'))
      return tokenError(401, 'invalid_client', 'Unauthorized');
    const grantType = f.get('grant_type');
    if (grantType === 'authorization_code') {
      const c = codes.get(f.get('code') ?? '');
      if (!c || c.used || c.expiresAt < clock.now() || c.clientId !== clientId)
        return tokenError(400, 'invalid_grant', 'Bad Request');
      if (c.redirectUri !== f.get('redirect_uri')) return tokenError(400, 'redirect_uri_mismatch', 'Bad Request');
      c.used = true;
      const refreshToken = randomToken('1//0sim-', 32);
      const grant: Grant = {
        clientId: clientId!,
        scope: c.scope,
        refreshToken,
        createdAt: clock.now(),
        revoked: false,
      };
      grants.set(refreshToken, grant);
      return {
        status: 200,
        body: {
          access_token: issueAccess(grant),
          expires_in: accessTtl,
          refresh_token: refreshToken,
          scope: c.scope.join(' '),
          token_type: 'Bearer',
        },
      };
    }
    if (grantType === 'refresh_token') {
      const g = grants.get(f.get('refresh_token') ?? '');
      if (!g || g.revoked || g.clientId !== clientId)
        return tokenError(400, 'invalid_grant', 'Token has been expired or revoked.');
      if (opts.testingMode && clock.now() - g.createdAt > 7 * 24 * 3600_000)
        return tokenError(400, 'invalid_grant', 'Token has been expired or revoked.');
      ctl.refreshCount++;
      return {
        status: 200,
        body: { access_token: issueAccess(g), expires_in: accessTtl, scope: g.scope.join(' '), token_type: 'Bearer' },
      };
    }
    return tokenError(400, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  };

  const revoke = (r: SimRequest): SimReply => {
    const t = r.query.get('token') ?? r.form.get('token') ?? '';
    const g = grants.get(t) ?? tokens.get(t)?.grant;
    if (!g) return tokenError(400, 'invalid_token', 'Token expired or revoked');
    g.revoked = true;
    return { status: 200, body: {} };
  };

  /** 401 unless the bearer token is live; 403 unless it carries one of `scopes`. */
  const authed = (r: SimRequest, scopes: string[]): SimReply | AccessToken => {
    const t = r.bearer ? tokens.get(r.bearer) : undefined;
    if (!t || t.grant.revoked || t.expiresAt <= clock.now()) {
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
        body: {
          error: {
            code: 401,
            message:
              'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
            errors: [
              {
                message: 'Invalid Credentials',
                domain: 'global',
                reason: 'authError',
                location: 'Authorization',
                locationType: 'header',
              },
            ],
            status: 'UNAUTHENTICATED',
          },
        },
      };
    }
    if (!t.grant.scope.some((s) => scopes.includes(s))) {
      return googleApiError(
        403,
        'insufficientPermissions',
        'Request had insufficient authentication scopes.',
        'global',
        'PERMISSION_DENIED',
      );
    }
    return t;
  };

  const refusal = (r: SimRequest, scopes: string[]): SimReply | null => {
    const a = authed(r, scopes);
    return 'status' in a ? a : null;
  };
  const videos = youtubeVideosState(() => sim.channel);
  let base = '';
  const upload = youtubeUploadRoutes(videos, { clock, base: () => base, authed: refusal, hash: opts.hashUploads });

  const server = await startSimServer(
    [
      { method: 'GET', path: '/o/oauth2/v2/auth', handler: authorize },
      { method: 'POST', path: '/token', handler: token },
      { method: 'POST', path: '/revoke', handler: revoke },
      ...youtubeChannelRoutes(sim, refusal, dailyQuota),
      ...upload.routes,
      ...youtubeVideoRoutes(videos, { clock, spend: quotaSpender(sim, dailyQuota), authed: refusal }),
    ],
    { port: opts.port },
  );

  base = server.url;

  const registerClient = (id: string, secret: string) => void clients.set(id, secret);
  const live = forward(forward(sim, videos), upload.controls);
  return withSimControls(Object.assign(live, { registerClient }), server, ctl, {
    tokens: () => tokens.values(),
    revoke: () => {
      for (const g of grants.values()) g.revoked = true;
    },
  });
}
