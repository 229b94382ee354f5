/**
 * TikTok Login Kit v2 + user info simulator.
 *
 * Endpoints (one host stands for www.tiktok.com and open.tiktokapis.com):
 *   GET  /v2/auth/authorize/    consent: 302 to redirect_uri ?code&scopes&state, or ?error=access_denied&error_description&state
 *   POST /v2/oauth/token/       authorization_code / refresh_token (refresh tokens rotate: the old one dies)
 *   POST /v2/oauth/revoke/      revokes the grant
 *   GET  /v2/user/info/         ?fields=… → { data: { user }, error: { code: "ok", message: "", log_id } }
 *   Content Posting API (creator_info, video/init, chunk PUTs, status/fetch) and video/query: ./tiktok-publish.ts
 * OAuth errors are `{ error, error_description, log_id }`; API errors use the `{ data, error }` envelope.
 */
import {
  SimState,
  htmlError,
  randomToken,
  redirectTo,
  startSimServer,
  type SimControls,
  type SimReply,
  type SimRequest,
  withSimControls,
} from './common';
import { tiktokPublishRoutes, type TikTokPublishControls, type TikTokPublishSettings } from './tiktok-publish';

export type { SimTikTokPost, SimTikTokUpload, TikTokPublishSettings } from './tiktok-publish';

export const TIKTOK_SIM_CLIENT_KEY = 'sim-tiktok-client-key';
export const TIKTOK_SIM_CLIENT_SECRET = 'sim-tiktok-client-secret';

const FIELD_SCOPES: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

export interface SimTikTokUser {
  open_id: string;
  union_id: string;
  avatar_url: string;
  display_name: string;
  bio_description: string;
  profile_deep_link: string;
  username: string;
  is_verified: boolean;
  follower_count: number;
  following_count: number;
  likes_count: number;
  video_count: number;
}

export interface TikTokSimulatorOptions {
  port?: number;
  clientKey?: string;
  clientSecret?: string;
  /** Access token lifetime (2026 docs: 2 h). */
  accessTtlSec?: number;
  /** Refresh token lifetime (2026 docs: 180 d). */
  refreshTtlSec?: number;
  /** HTTP status used for OAuth errors (TikTok has been seen answering them with 200). */
  oauthErrorStatus?: number;
  user?: Partial<SimTikTokUser>;
  /** Content Posting API behaviour (privacy options, unaudited mode, polls before the post id shows, limits). */
  publish?: Partial<TikTokPublishSettings>;
}

interface Grant {
  scope: string[];
  refreshToken: string;
  refreshExpiresAt: number;
  revoked: boolean;
}

export interface TikTokSimulator extends SimControls, TikTokPublishControls {
  clientKey: string;
  clientSecret: string;
  user: SimTikTokUser;
  /** The refresh token currently valid (after rotation), if any. */
  readonly currentRefreshToken: string | undefined;
}

const logId = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14) + randomToken('', 9).toUpperCase();

export async function startTikTokSimulator(opts: TikTokSimulatorOptions = {}): Promise<TikTokSimulator> {
  const ctl = new SimState();
  const clock = ctl.clock;
  const clientKey = opts.clientKey ?? TIKTOK_SIM_CLIENT_KEY;
  const clientSecret = opts.clientSecret ?? TIKTOK_SIM_CLIENT_SECRET;
  const accessTtl = opts.accessTtlSec ?? 7200;
  const refreshTtl = opts.refreshTtlSec ?? 180 * 24 * 3600;
  const oauthErrorStatus = opts.oauthErrorStatus ?? 400;
  const codes = new Map<string, { redirectUri: string; scope: string[]; expiresAt: number; used: boolean }>();
  const grants = new Map<string, Grant>(); // by current refresh token
  const tokens = new Map<string, { grant: Grant; expiresAt: number }>();
  let lastRefreshToken: string | undefined;

  const user: SimTikTokUser = {
    open_id: '-000' + randomToken('', 12),
    union_id: 'c9c0' + randomToken('', 12),
    avatar_url: 'https://p16-sign.tiktokcdn.example/avatar.jpeg',
    display_name: 'Kadr Sim',
    bio_description: 'TikTok bio from the simulator',
    profile_deep_link: 'https://vm.tiktok.com/ZMsim123/',
    username: 'kadr.sim',
    is_verified: false,
    follower_count: 321,
    following_count: 12,
    likes_count: 4567,
    video_count: 8,
    ...opts.user,
  };

  const oauthError = (error: string, description: string): SimReply => ({
    status: oauthErrorStatus,
    body: { error, error_description: description, log_id: logId() },
  });
  const apiError = (status: number, code: string, message: string): SimReply => ({
    status,
    body: { data: {}, error: { code, message, log_id: logId() } },
  });

  const authorize = (r: SimRequest): SimReply => {
    const q = r.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_key') !== clientKey)
      return htmlError(400, 'client_key: something went wrong, please try again later (param_error)');
    if (!redirectUri) return htmlError(400, 'redirect_uri: param_error');
    if (q.get('response_type') !== 'code') return htmlError(400, 'response_type: param_error');
    const scope = (q.get('scope') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!scope.length) return htmlError(400, 'scope: param_error');
    const state = q.get('state') ?? undefined;
    const granted = ctl.consent(scope, q.get('sim_deny') === '1');
    if (!granted) {
      return redirectTo(redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state,
      });
    }
    // Real codes carry characters that must be URL-decoded before the exchange.
    const code = randomToken('', 20) + '*0!' + Math.floor(Math.random() * 9000 + 1000);
    codes.set(code, { redirectUri, scope: granted, expiresAt: clock.now() + 5 * 60_000, used: false });
    return redirectTo(redirectUri, { code, scopes: granted.join(','), state });
  };

  const issue = (grant: Grant) => {
    const accessToken = randomToken('act.sim', 30);
    tokens.set(accessToken, { grant, expiresAt: clock.now() + accessTtl * 1000 });
    return {
      open_id: user.open_id,
      scope: grant.scope.join(','),
      access_token: accessToken,
      expires_in: accessTtl,
      refresh_token: grant.refreshToken,
      refresh_expires_in: Math.max(0, Math.round((grant.refreshExpiresAt - clock.now()) / 1000)),
      token_type: 'Bearer',
    };
  };

  const token = (r: SimRequest): SimReply => {
    if (!/x-www-form-urlencoded/i.test(String(r.headers['content-type'] ?? '')))
      return oauthError('invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    const f = r.form;
    if (f.get('client_key') !== clientKey || f.get('client_secret') !== clientSecret)
      return oauthError('invalid_client', 'Client key or secret is incorrect.');
    const grantType = f.get('grant_type');
    if (grantType === 'authorization_code') {
      const c = codes.get(f.get('code') ?? '');
      if (!c || c.used || c.expiresAt < clock.now())
        return oauthError('invalid_grant', 'Authorization code is expired.');
      if (c.redirectUri !== f.get('redirect_uri')) return oauthError('invalid_request', 'Redirect URI does not match.');
      c.used = true;
      const refreshToken = randomToken('rft.sim', 30);
      const grant: Grant = {
        scope: c.scope,
        refreshToken,
        refreshExpiresAt: clock.now() + refreshTtl * 1000,
        revoked: false,
      };
      grants.set(refreshToken, grant);
      lastRefreshToken = refreshToken;
      return { status: 200, body: issue(grant) };
    }
    if (grantType === 'refresh_token') {
      const old = f.get('refresh_token') ?? '';
      const g = grants.get(old);
      if (!g || g.revoked || g.refreshToken !== old || g.refreshExpiresAt <= clock.now())
        return oauthError('invalid_grant', 'Refresh token is invalid or expired.');
      // Rotation: the old refresh token stops working; a new one is returned.
      grants.delete(old);
      g.refreshToken = randomToken('rft.sim', 30);
      g.refreshExpiresAt = clock.now() + refreshTtl * 1000;
      grants.set(g.refreshToken, g);
      lastRefreshToken = g.refreshToken;
      ctl.refreshCount++;
      return { status: 200, body: issue(g) };
    }
    return oauthError('unsupported_grant_type', `Grant type ${grantType ?? ''} is not supported.`);
  };

  const revoke = (r: SimRequest): SimReply => {
    const f = r.form;
    if (f.get('client_key') !== clientKey || f.get('client_secret') !== clientSecret)
      return oauthError('invalid_client', 'Client key or secret is incorrect.');
    const t = tokens.get(f.get('token') ?? '');
    if (t) t.grant.revoked = true;
    return { status: 200, body: {} };
  };

  const userInfo = (r: SimRequest): SimReply => {
    const t = r.bearer ? tokens.get(r.bearer) : undefined;
    if (!t || t.grant.revoked || t.expiresAt <= clock.now()) {
      return apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    }
    const fields = (r.query.get('fields') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!fields.length) return apiError(400, 'invalid_params', 'The fields parameter is required.');
    const unknown = fields.find((f) => !(f in FIELD_SCOPES));
    if (unknown) return apiError(400, 'invalid_params', `Invalid field: ${unknown}`);
    const missing = fields.find((f) => !t.grant.scope.includes(FIELD_SCOPES[f]!));
    if (missing)
      return apiError(
        401,
        'scope_not_authorized',
        `The user did not authorize the scope required for field ${missing}.`,
      );
    const out: Record<string, unknown> = {};
    const values = new Map<string, unknown>(Object.entries(user));
    for (const f of fields) out[f] = values.get(f);
    return { status: 200, body: { data: { user: out }, error: { code: 'ok', message: '', log_id: logId() } } };
  };

  const authApi = (r: SimRequest, scopes: string[]): SimReply | { token: string } => {
    const t = r.bearer ? tokens.get(r.bearer) : undefined;
    if (!t || t.grant.revoked || t.expiresAt <= clock.now()) {
      return apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    }
    if (!scopes.some((s) => t.grant.scope.includes(s))) {
      return apiError(401, 'scope_not_authorized', `The user did not authorize the scope ${scopes.join(' or ')}.`);
    }
    return { token: r.bearer! };
  };
  const creator = { username: user.username, nickname: user.display_name, avatarUrl: user.avatar_url };
  const settings = opts.publish;
  const publish = tiktokPublishRoutes({
    clock,
    baseUrl: () => server.url,
    auth: authApi,
    apiError,
    logId,
    creator,
    settings,
  });

  const server = await startSimServer(
    [
      { method: 'GET', path: '/v2/auth/authorize/', handler: authorize },
      { method: 'POST', path: '/v2/oauth/token/', handler: token },
      { method: 'POST', path: '/v2/oauth/revoke/', handler: revoke },
      { method: 'GET', path: '/v2/user/info/', handler: userInfo },
      ...publish.routes,
    ],
    { port: opts.port },
  );
  // A last chunk held unanswered (the timeout-after-publish fault) is let go when the simulator closes.
  const close = () => (publish.release(), server.close());

  const sim = withSimControls({ clientKey, clientSecret, user, ...publish.controls }, { ...server, close }, ctl, {
    tokens: () => tokens.values(),
    revoke: () => {
      for (const g of grants.values()) g.revoked = true;
    },
  });
  return Object.defineProperty(sim, 'currentRefreshToken', {
    get: () => lastRefreshToken,
    enumerable: true,
  }) as TikTokSimulator;
}
