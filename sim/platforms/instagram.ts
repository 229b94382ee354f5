/**
 * Instagram API with Instagram Login simulator (login, tokens, profile).
 *
 * Endpoints (one host stands for www.instagram.com, api.instagram.com and graph.instagram.com):
 *   GET  /oauth/authorize                302 to redirect_uri ?code&state#_  or ?error=access_denied&error_reason=user_denied…#_
 *   POST /oauth/access_token             code → short-lived token {access_token, user_id, permissions}
 *   GET  /access_token                   ig_exchange_token: short → long-lived {access_token, token_type, expires_in}
 *   GET  /refresh_access_token           ig_refresh_token: long-lived token ≥ 24 h old and unexpired → new one
 *   GET  /{vNN.N}/me  (and /me)          ?fields=user_id,username,name,biography,… &access_token=…
 * Publishing (containers that fetch video_url, media_publish, media, insights): ./instagram-publish.ts.
 * Errors: Graph `{ error: { message, type: "OAuthException", code, error_subcode, is_transient, fbtrace_id } }`;
 * the code exchange uses `{ error_type, code, error_message }`. There is no profile-update endpoint.
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
import {
  instagramPublishRoutes,
  type InstagramPublishControls,
  type InstagramPublishOptions,
} from './instagram-publish';

export const INSTAGRAM_SIM_APP_ID = '990000000000001';
export const INSTAGRAM_SIM_APP_SECRET = 'sim-instagram-app-secret';

const PROFILE_FIELDS = [
  'id',
  'user_id',
  'username',
  'name',
  'biography',
  'website',
  'account_type',
  'profile_picture_url',
  'followers_count',
  'follows_count',
  'media_count',
];

export interface SimInstagramProfile {
  id: string;
  user_id: string;
  username: string;
  name: string;
  biography: string;
  website: string;
  account_type: 'BUSINESS' | 'MEDIA_CREATOR';
  profile_picture_url: string;
  followers_count: number;
  follows_count: number;
  media_count: number;
}

export interface InstagramSimulatorOptions {
  port?: number;
  appId?: string;
  appSecret?: string;
  /** Answer the code exchange as { data: [ … ] } instead of the flat object. */
  wrappedTokenResponse?: boolean;
  profile?: Partial<SimInstagramProfile>;
  /** Publishing: posts per 24 h (default 100) and status polls before FINISHED (default 2). */
  publish?: InstagramPublishOptions;
}

interface Token {
  kind: 'short' | 'long';
  scope: string[];
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
}

/** `revokeAll`: the user removed the app, every token answers 190 / 458; an expired long-lived token cannot be refreshed. */
export interface InstagramSimulator extends SimControls, InstagramPublishControls {
  appId: string;
  appSecret: string;
  profile: SimInstagramProfile;
}

const fbtrace = () => randomToken('A', 16);

export async function startInstagramSimulator(opts: InstagramSimulatorOptions = {}): Promise<InstagramSimulator> {
  const ctl = new SimState();
  const clock = ctl.clock;
  const appId = opts.appId ?? INSTAGRAM_SIM_APP_ID;
  const appSecret = opts.appSecret ?? INSTAGRAM_SIM_APP_SECRET;
  const codes = new Map<string, { redirectUri: string; scope: string[]; expiresAt: number; used: boolean }>();
  const tokens = new Map<string, Token>();

  const profile: SimInstagramProfile = {
    id: '2' + String(Math.floor(Math.random() * 1e15)).padStart(15, '0'),
    user_id: '1784' + String(Math.floor(Math.random() * 1e13)).padStart(13, '0'),
    username: 'kadr.sim',
    name: 'Kadr Sim',
    biography: 'Instagram bio from the simulator',
    website: 'https://kadr.example',
    account_type: 'MEDIA_CREATOR',
    profile_picture_url: 'https://scontent.cdninstagram.example/p.jpg',
    followers_count: 1200,
    follows_count: 80,
    media_count: 31,
    ...opts.profile,
  };

  const graphError = (
    status: number,
    code: number,
    message: string,
    subcode?: number,
    type = 'OAuthException',
  ): SimReply => ({
    status,
    headers:
      code === 190
        ? { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message.replace(/"/g, "'")}"` }
        : {},
    body: {
      error: {
        message,
        type,
        code,
        ...(subcode ? { error_subcode: subcode } : {}),
        is_transient: false,
        fbtrace_id: fbtrace(),
      },
    },
  });

  /** Validates a token: 190 when unknown/expired/revoked. */
  const check = (t: string | null | undefined): Token | SimReply => {
    const tok = t ? tokens.get(t) : undefined;
    if (!tok) return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (tok.revoked)
      return graphError(
        400,
        190,
        'Error validating access token: The user has not authorized application ' + appId + '.',
        458,
      );
    if (tok.expiresAt <= clock.now()) {
      return graphError(
        400,
        190,
        `Error validating access token: Session has expired on ${new Date(tok.expiresAt).toUTCString()}. The current time is ${new Date(clock.now()).toUTCString()}.`,
        463,
      );
    }
    return tok;
  };

  const issue = (kind: Token['kind'], scope: string[]) => {
    const ttl = kind === 'short' ? 3600 : 60 * 24 * 3600;
    const t = kind === 'short' ? randomToken('IGQVJ', 40) : randomToken('IGAAL', 60);
    tokens.set(t, { kind, scope, issuedAt: clock.now(), expiresAt: clock.now() + ttl * 1000, revoked: false });
    return { token: t, ttl };
  };

  const authorize = (r: SimRequest): SimReply => {
    const q = r.query;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== appId)
      return htmlError(400, 'Invalid Request: Request parameters are invalid: Invalid platform app');
    if (!redirectUri) return htmlError(400, 'Invalid Request: Request parameters are invalid: Missing redirect_uri');
    if (q.get('response_type') !== 'code')
      return htmlError(400, 'Invalid Request: Request parameters are invalid: response_type');
    const scope = (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean);
    const state = q.get('state') ?? undefined;
    const granted = ctl.consent(scope, q.get('sim_deny') === '1');
    if (!granted) {
      return redirectTo(
        redirectUri,
        {
          error: 'access_denied',
          error_reason: 'user_denied',
          error_description: 'The user denied your request.',
          state,
        },
        '#_',
      );
    }
    const code = randomToken('AQ', 40);
    codes.set(code, { redirectUri, scope: granted, expiresAt: clock.now() + 60 * 60_000, used: false });
    return redirectTo(redirectUri, { code, state }, '#_');
  };

  const oauthError = (message: string): SimReply => ({
    status: 400,
    body: { error_type: 'OAuthException', code: 400, error_message: message },
  });

  const exchange = (r: SimRequest): SimReply => {
    const f = r.form;
    if (f.get('client_id') !== appId) return oauthError('Invalid platform app');
    if (f.get('client_secret') !== appSecret) return oauthError('Error validating client secret.');
    if (f.get('grant_type') !== 'authorization_code') return oauthError('Invalid grant_type');
    const c = codes.get(f.get('code') ?? '');
    if (!c || c.expiresAt < clock.now()) return oauthError('Invalid authorization code');
    if (c.used) return oauthError('This authorization code has been used');
    if (c.redirectUri !== f.get('redirect_uri'))
      return oauthError(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      );
    c.used = true;
    const { token } = issue('short', c.scope);
    const item = { access_token: token, user_id: Number(profile.user_id), permissions: c.scope.join(',') };
    return { status: 200, body: opts.wrappedTokenResponse ? { data: [item] } : item };
  };

  const longLived = (r: SimRequest): SimReply => {
    const q = r.query;
    if (q.get('grant_type') !== 'ig_exchange_token')
      return graphError(400, 100, 'Unsupported grant_type', undefined, 'OAuthException');
    if (q.get('client_secret') !== appSecret) return graphError(400, 101, 'Error validating client secret.');
    const t = check(q.get('access_token'));
    if ('status' in t) return t;
    if (t.kind !== 'short') return graphError(400, 100, 'Only short-lived tokens can be exchanged');
    const { token, ttl } = issue('long', t.scope);
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  };

  const refresh = (r: SimRequest): SimReply => {
    const q = r.query;
    if (q.get('grant_type') !== 'ig_refresh_token') return graphError(400, 100, 'Unsupported grant_type');
    const t = check(q.get('access_token'));
    if ('status' in t) return t;
    if (t.kind !== 'long') return graphError(400, 100, 'Only long-lived tokens can be refreshed');
    if (clock.now() - t.issuedAt < 24 * 3600_000)
      return graphError(400, 100, '(#100) The access token is less than 24 hours old and cannot be refreshed yet');
    const { token, ttl } = issue('long', t.scope);
    ctl.refreshCount++;
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: ttl } };
  };

  const me = (r: SimRequest): SimReply => {
    const t = check(r.query.get('access_token') ?? r.bearer);
    if ('status' in t) return t;
    if (!t.scope.includes('instagram_business_basic'))
      return graphError(403, 10, '(#10) Application does not have permission for this action');
    const fields = (r.query.get('fields') ?? 'id')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = fields.find((f) => !PROFILE_FIELDS.includes(f));
    if (bad)
      return graphError(
        400,
        100,
        `(#100) Tried accessing nonexisting field (${bad}) on node type (User)`,
        undefined,
        'IGApiException',
      );
    const out: Record<string, unknown> = { id: profile.id };
    const values = new Map<string, unknown>(Object.entries(profile));
    for (const f of fields) out[f] = values.get(f);
    return { status: 200, body: out };
  };

  const publish = instagramPublishRoutes({ clock, profile, graphError, token: check }, opts.publish);

  const server = await startSimServer(
    [
      { method: 'GET', path: '/oauth/authorize', handler: authorize },
      { method: 'POST', path: '/oauth/access_token', handler: exchange },
      { method: 'GET', path: '/access_token', handler: longLived },
      { method: 'GET', path: '/refresh_access_token', handler: refresh },
      { method: 'GET', path: /^\/(v\d+\.\d+\/)?me$/, handler: me },
      ...publish.routes,
    ],
    { port: opts.port },
  );

  return withSimControls({ appId, appSecret, profile, ...publish.controls }, server, ctl, {
    tokens: () => tokens.values(),
    revoke: () => {
      for (const t of tokens.values()) t.revoked = true;
    },
  });
}
