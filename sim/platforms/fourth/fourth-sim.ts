/**
 * "Fourth": a made-up short-video platform that exists only in tests, the proof that a platform is one folder
 * (issue 19 item 2). Its simulator speaks a plain OAuth 2.0 authorization-code flow and a small upload API:
 *
 *   GET  /oauth/authorize      consent: 302 to redirect_uri ?code&state (client_id checked)
 *   POST /oauth/token          authorization_code / refresh_token (form; the client's id and secret checked)
 *   GET  /v1/me                the signed-in user's profile
 *   POST /v1/uploads           { title, description, size } → { upload_id }
 *   PUT  /v1/uploads/:id       the file's bytes (streamed; the whole file, a repeat replaces it)
 *   GET  /v1/uploads/:id       { state: open | processing | published, received, size, post_id, url }
 *   GET  /v1/stats?ids=a,b     { items: [{ id, views, likes, comments }] }
 */
import { createHash } from 'node:crypto';
import {
  SimState,
  jsonBody,
  randomToken,
  redirectTo,
  startSimServer,
  withSimControls,
  type SimControls,
  type SimReply,
  type SimRequest,
} from '../common';

export const FOURTH_SIM_CLIENT_ID = 'sim-fourth-client';
export const FOURTH_SIM_CLIENT_SECRET = 'sim-fourth-secret';
export const FOURTH_SCOPES = ['profile', 'publish', 'stats'];

/** A post the simulator holds: what was uploaded, and its counters (a test sets them). */
export interface SimFourthPost {
  id: string;
  title: string;
  description: string;
  size: number;
  sha256: string;
  url: string;
  views: number;
  likes: number;
  comments: number;
}

interface Upload {
  id: string;
  title: string;
  description: string;
  size: number;
  received: number;
  sha256: string;
  /** Status polls left before a processing upload is published. */
  pollsLeft: number;
  post: SimFourthPost | null;
}

interface Token {
  expiresAt: number;
  refreshToken: string;
}

export interface FourthSimulator extends SimControls {
  posts(): SimFourthPost[];
  /** Status polls a finished upload stays 'processing' for (default 1). */
  processingPolls: number;
}

const error = (status: number, code: string, message: string): SimReply => ({
  status,
  body: { error: { code, message } },
});

export async function startFourthSimulator(opts: { port?: number } = {}): Promise<FourthSimulator> {
  const state = new SimState();
  const codes = new Map<string, { redirectUri: string; scope: string[] }>();
  const access = new Map<string, Token>();
  const refresh = new Set<string>();
  const uploads = new Map<string, Upload>();
  const posts: SimFourthPost[] = [];
  let revoked = false;
  const sim = { processingPolls: 1, posts: () => [...posts] };

  const issue = (scope: string[]) => {
    const token = randomToken('fa_');
    const refreshToken = randomToken('fr_');
    access.set(token, { expiresAt: state.clock.now() + 3600_000, refreshToken });
    refresh.add(refreshToken);
    return {
      status: 200,
      body: {
        access_token: token,
        refresh_token: refreshToken,
        expires_in: 3600,
        scope: scope.join(' '),
        user_id: 'f-1',
      },
    };
  };
  const authorized = (r: SimRequest) => {
    const t = r.bearer ? access.get(r.bearer) : undefined;
    return !revoked && t !== undefined && t.expiresAt > state.clock.now();
  };
  const guarded =
    (fn: (r: SimRequest) => SimReply | Promise<SimReply>) =>
    (r: SimRequest): SimReply | Promise<SimReply> =>
      authorized(r) ? fn(r) : error(401, 'invalid_token', 'The access token is invalid or expired');
  const uploadOf = (path: string) => uploads.get(path.split('/')[3] ?? '');

  const server = await startSimServer(
    [
      {
        method: 'GET',
        path: '/oauth/authorize',
        handler: (r) => {
          const redirectUri = r.query.get('redirect_uri') ?? '';
          if (r.query.get('client_id') !== FOURTH_SIM_CLIENT_ID || !redirectUri)
            return error(400, 'invalid_client', 'Unknown client');
          const scope = state.consent(
            String(r.query.get('scope') ?? '')
              .split(' ')
              .filter(Boolean),
          );
          if (!scope) return redirectTo(redirectUri, { error: 'access_denied', state: r.query.get('state') ?? '' });
          const code = randomToken('fc_');
          codes.set(code, { redirectUri, scope });
          return redirectTo(redirectUri, { code, state: r.query.get('state') ?? '' });
        },
      },
      {
        method: 'POST',
        path: '/oauth/token',
        handler: (r) => {
          const f = r.form;
          if (f.get('client_id') !== FOURTH_SIM_CLIENT_ID || f.get('client_secret') !== FOURTH_SIM_CLIENT_SECRET)
            return error(401, 'invalid_client', 'Bad client credentials');
          if (f.get('grant_type') === 'authorization_code') {
            const grant = codes.get(f.get('code') ?? '');
            codes.delete(f.get('code') ?? '');
            if (!grant || grant.redirectUri !== f.get('redirect_uri'))
              return error(400, 'invalid_grant', 'The code is invalid or used');
            return issue(grant.scope);
          }
          if (f.get('grant_type') === 'refresh_token') {
            const old = f.get('refresh_token') ?? '';
            if (revoked || !refresh.has(old)) return error(400, 'invalid_grant', 'The refresh token is revoked');
            refresh.delete(old);
            state.refreshCount++;
            return issue(FOURTH_SCOPES);
          }
          return error(400, 'unsupported_grant_type', 'Unknown grant type');
        },
      },
      {
        method: 'GET',
        path: '/v1/me',
        handler: guarded(() => ({
          status: 200,
          body: {
            id: 'f-1',
            name: 'Fourth Channel',
            username: 'fourth_channel',
            bio: 'A platform that exists in tests',
            link: 'https://fourth.example/@fourth_channel',
            avatar: 'https://fourth.example/a/f-1.png',
          },
        })),
      },
      {
        method: 'POST',
        path: '/v1/uploads',
        handler: guarded((r) => {
          const b = jsonBody<{ title: string; description: string; size: number }>(r);
          if (typeof b.title !== 'string' || !Number.isInteger(b.size) || (b.size ?? 0) <= 0)
            return error(400, 'invalid_request', 'title and size are required');
          const id = randomToken('up_', 9);
          uploads.set(id, {
            id,
            title: b.title,
            description: b.description ?? '',
            size: b.size!,
            received: 0,
            sha256: '',
            pollsLeft: sim.processingPolls,
            post: null,
          });
          return { status: 200, body: { upload_id: id } };
        }),
      },
      {
        method: 'PUT',
        path: /^\/v1\/uploads\/[^/]+$/,
        stream: true,
        handler: guarded(async (r) => {
          const u = uploadOf(r.path);
          if (!u) return error(404, 'not_found', 'No such upload');
          if (u.post) return { status: 409, body: { error: { code: 'already_published', message: 'Published' } } };
          const hash = createHash('sha256');
          let received = 0;
          for await (const chunk of r.body ?? []) {
            hash.update(chunk);
            received += chunk.length;
          }
          u.received = received;
          u.sha256 = hash.digest('hex');
          if (received !== u.size) return error(400, 'size_mismatch', `Expected ${u.size} bytes, got ${received}`);
          return { status: 200, body: { received } };
        }),
      },
      {
        method: 'GET',
        path: /^\/v1\/uploads\/[^/]+$/,
        handler: guarded((r) => {
          const u = uploadOf(r.path);
          if (!u) return error(404, 'not_found', 'No such upload');
          if (u.received === u.size && !u.post) {
            if (u.pollsLeft > 0) u.pollsLeft--;
            else {
              const id = `fp_${posts.length + 1}`;
              u.post = {
                id,
                title: u.title,
                description: u.description,
                size: u.size,
                sha256: u.sha256,
                url: `https://fourth.example/p/${id}`,
                views: 0,
                likes: 0,
                comments: 0,
              };
              posts.push(u.post);
            }
          }
          const s = u.post ? 'published' : u.received === u.size ? 'processing' : 'open';
          return {
            status: 200,
            body: { state: s, received: u.received, size: u.size, post_id: u.post?.id, url: u.post?.url },
          };
        }),
      },
      {
        method: 'GET',
        path: '/v1/stats',
        handler: guarded((r) => {
          const ids = String(r.query.get('ids') ?? '').split(',');
          const items = posts
            .filter((p) => ids.includes(p.id))
            .map(({ id, views, likes, comments }) => ({ id, views, likes, comments }));
          return { status: 200, body: { items } };
        }),
      },
    ],
    { port: opts.port },
  );

  return withSimControls(sim, server, state, {
    tokens: () => access.values(),
    revoke: () => {
      revoked = true;
    },
  }) as FourthSimulator;
}
