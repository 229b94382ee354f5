/**
 * The test-only fourth platform behind the one platform contract (server/platforms/adapter.ts): its OAuth driver
 * on the shared OAuth2 base, its publish steps (upload created with its handle stored → bytes sent → status
 * polled until published) and its stats read, against ./fourth-sim.ts. Nothing in the server names it: a test
 * adds it to the registry it hands the root (`ContainerOverrides.platforms`) and its settings to
 * `config.platforms.fourth`.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { inAnHour, waitOnCodes, type PlatformAdapter } from '../../../server/platforms/adapter';
import {
  expiresAtFrom,
  genericHttpError,
  joinUrl,
  optionalText,
  parsed,
  readBody,
  requireScopes,
  splitScopes,
} from '../../../server/platforms/common';
import type { PlatformHttp, PlatformResponse } from '../../../server/platforms/http';
import { OAuth2Driver, serverClient, type OAuth2DriverOptions } from '../../../server/platforms/oauth2';
import type { PlatformCall, StepContext, StepResult } from '../../../server/platforms/publish-step';
import type { VideoStats } from '../../../server/platforms/publish-types';
import {
  PlatformError,
  type PlatformCapabilities,
  type PlatformProfile,
  type TokenSet,
} from '../../../server/platforms/types';
import { FOURTH_SCOPES } from './fourth-sim';

export const FOURTH = 'fourth';

export type FourthBaseUrls = { api: string };

const CAPABILITIES: PlatformCapabilities = {
  updateProfileName: false,
  updateDescription: false,
  publishVideo: true,
  readStats: true,
};

const Token = z.object({
  access_token: z.string().min(1),
  refresh_token: optionalText,
  expires_in: z.unknown().optional(),
  scope: z.unknown().optional(),
  user_id: optionalText,
});
const Me = z.object({
  id: z.string(),
  name: z.string(),
  username: optionalText,
  bio: optionalText,
  link: optionalText,
  avatar: optionalText,
});
const Upload = z.object({ upload_id: z.string().min(1) });
const Status = z.object({
  state: z.enum(['open', 'processing', 'published']),
  received: z.number(),
  size: z.number(),
  post_id: optionalText,
  url: optionalText,
});
const Stats = z.object({
  items: z.array(z.object({ id: z.string(), views: z.number(), likes: z.number(), comments: z.number() })),
});

/** A JSON answer through its schema, or the platform's refusal. */
async function answer<T>(res: PlatformResponse, schema: z.ZodType<T>): Promise<T> {
  const body = await readBody(res);
  const value = res.status >= 200 && res.status < 300 ? parsed(schema, body) : null;
  if (value) return value;
  const detail = typeof body === 'object' && body ? JSON.stringify(body) : undefined;
  throw genericHttpError(FOURTH, res.status, res.headers, body, detail);
}

export class FourthDriver extends OAuth2Driver<FourthBaseUrls> {
  readonly capabilities = CAPABILITIES;
  readonly refreshAheadMs = 5 * 60_000;

  constructor(opts: OAuth2DriverOptions<FourthBaseUrls>) {
    super(
      {
        name: FOURTH,
        defaultBaseUrls: { api: 'https://api.fourth.example' },
        scopes: FOURTH_SCOPES,
        noClientKey: 'rejected',
      },
      opts,
    );
  }

  authorizationUrl(params: { state: string; redirectUri?: string }): string {
    return this.consentLink(this.baseUrls.api, '/oauth/authorize', params.redirectUri, (redirectUri) => ({
      client_id: this.credentials.clientId,
      response_type: 'code',
      scope: this.scopes.join(' '),
      redirect_uri: redirectUri,
      state: params.state,
    }));
  }

  async exchangeCode(params: { code: string; redirectUri?: string }): Promise<TokenSet> {
    this.requireCredentials();
    const tokens = await this.token({
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: this.redirect(params.redirectUri),
    });
    requireScopes(this.name, tokens.scope, this.scopes);
    return tokens;
  }

  async refresh(tokens: TokenSet): Promise<TokenSet> {
    this.requireCredentials();
    const next = await this.token({ grant_type: 'refresh_token', refresh_token: this.refreshTokenOf(tokens) });
    return { ...next, platformUserId: next.platformUserId || tokens.platformUserId };
  }

  async getProfile(accessToken: string): Promise<PlatformProfile> {
    const me = await answer(await this.http.request(joinUrl(this.baseUrls.api, '/v1/me'), bearer(accessToken)), Me);
    return {
      title: me.name,
      description: me.bio ?? '',
      url: me.link ?? '',
      username: me.username,
      avatarUrl: me.avatar,
      platformUserId: me.id,
    };
  }

  private async token(form: Record<string, string>): Promise<TokenSet> {
    const res = await this.http.request(joinUrl(this.baseUrls.api, '/oauth/token'), {
      method: 'POST',
      body: { form: { ...form, client_id: this.credentials.clientId, client_secret: this.credentials.clientSecret } },
    });
    if (res.status === 400 || res.status === 401) {
      const body = await readBody(res);
      throw new PlatformError({
        kind: 'reconnect',
        platform: FOURTH,
        code: 'invalid_grant',
        key: 'token_request_rejected',
        params: { platform: 'Fourth' },
        raw: body,
      });
    }
    const t = await answer(res, Token);
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: expiresAtFrom(this.now(), t.expires_in, 3600),
      scope: splitScopes(t.scope, /\s+/),
      platformUserId: t.user_id ?? '',
    };
  }
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The upload API, through one profile's HTTP client. */
const api = (http: PlatformHttp, call: Pick<PlatformCall, 'settings'>) => {
  const base = call.settings.baseUrls?.api ?? 'https://api.fourth.example';
  return {
    create: async (token: string, meta: { title: string; description: string }, size: number) =>
      answer(
        await http.request(joinUrl(base, '/v1/uploads'), {
          method: 'POST',
          ...bearer(token),
          body: { json: { title: meta.title, description: meta.description, size } },
        }),
        Upload,
      ),
    send: async (token: string, id: string, body: { stream: Readable; size: number }, signal: AbortSignal) => {
      const res = await http.request(joinUrl(base, `/v1/uploads/${encodeURIComponent(id)}`), {
        method: 'PUT',
        ...bearer(token),
        signal,
        timeoutMs: 10 * 60_000,
        body: { stream: body.stream, contentType: 'video/mp4', contentLength: body.size },
      });
      await answer(res, z.object({ received: z.number() }));
    },
    status: async (token: string, id: string) =>
      answer(await http.request(joinUrl(base, `/v1/uploads/${encodeURIComponent(id)}`), bearer(token)), Status),
    stats: async (token: string, ids: string[]): Promise<VideoStats[]> =>
      (
        await answer(
          await http.request(joinUrl(base, '/v1/stats'), { ...bearer(token), query: { ids: ids.join(',') } }),
          Stats,
        )
      ).items,
  };
};

type FourthHandle = { uploadId?: string };

/** Sends the whole file (a repeat replaces what the platform holds), then polls. */
async function send(ctx: StepContext, uploadId: string): Promise<StepResult> {
  const source = await ctx.source();
  await ctx.call((_d, token, call) =>
    api(call.http, call).send(token, uploadId, { stream: source.open(0, source.size), size: source.size }, ctx.signal),
  );
  ctx.progress(source.size, source.size);
  await ctx.save({ state: 'processing', processingSince: ctx.now().toISOString(), bytesSent: source.size });
  return { next: 'again', delayMs: ctx.timing.pollMs };
}

export const fourth: PlatformAdapter = {
  id: FOURTH,
  label: 'Fourth',
  capabilities: CAPABILITIES,
  oauthClient: 'server',
  connectPath: '/api/fourth/authorize/:id',
  driver: ({ http, settings, now }) =>
    new FourthDriver({
      http,
      now,
      baseUrls: settings.baseUrls,
      redirectUri: settings.redirectUri,
      credentials: serverClient(settings),
    }),
  started: (ctx) => Boolean((ctx.handle as FourthHandle).uploadId),
  async publish(ctx) {
    const taken = await ctx.takeSlot();
    if (taken.until) {
      const reason = new PlatformError({
        kind: 'retry-later',
        platform: FOURTH,
        key: 'rate_limited',
        params: { platform: 'Fourth' },
      });
      return { next: 'wait', until: taken.until, reason };
    }
    const source = await ctx.source();
    let uploadId: string;
    try {
      ({ upload_id: uploadId } = await ctx.call((_d, token, call) =>
        api(call.http, call).create(token, ctx.meta, source.size),
      ));
    } catch (e) {
      await ctx.giveBack(taken.slot); // nothing was posted
      throw e;
    }
    const kept = await ctx.save({ state: 'uploading', handle: { uploadId }, bytesSent: 0, bytesTotal: source.size });
    return kept ? send(ctx, uploadId) : { next: 'again', delayMs: 0 };
  },
  async reconcile(ctx) {
    const { uploadId } = ctx.handle as FourthHandle;
    const s = await ctx.call((_d, token, call) => api(call.http, call).status(token, uploadId!));
    if (s.state === 'published') return { next: 'published', remoteId: s.post_id ?? null, url: s.url ?? null };
    if (s.state === 'open') return send(ctx, uploadId!);
    return { next: 'again', delayMs: ctx.timing.pollMs };
  },
  limitWait: waitOnCodes(['rate_limited'], inAnHour),
  limits: { window: 'rolling-24h', posts: 50 },
  stats: { batch: 100, read: (call, token, ids) => api(call.http, call).stats(token, ids) },
};
