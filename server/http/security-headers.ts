import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The panel's and the API's security headers (@fastify/helmet). The built panel loads only its own scripts
 * (no inline script; MUI's emotion inserts <style> elements, hence 'unsafe-inline' for styles only), shows
 * images and videos from signed media links (same origin) and from blob:/data: previews (plus the platforms'
 * avatar hosts), talks only to its own
 * API, and may not be framed. The Swagger UI at /api/docs sends its own policy (server/http/openapi.ts).
 */
/** Where YouTube, TikTok and Instagram serve profile pictures from (their APIs' avatar links). */
export const AVATAR_HOSTS = [
  'https://yt3.ggpht.com',
  'https://yt3.googleusercontent.com',
  'https://*.tiktokcdn.com',
  'https://*.tiktokcdn-us.com',
  'https://*.cdninstagram.com',
  'https://*.fbcdn.net',
];

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // Profiles' avatars are the platforms' own links (issue 18): only their image hosts, nothing else.
  'img-src': ["'self'", 'data:', 'blob:', ...AVATAR_HOSTS],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const HELMET_OPTIONS: FastifyHelmetOptions = {
  // No upgrade-insecure-requests: the panel is also reached over plain HTTP on a LAN address.
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Media links are <img>/<video> sources of the same origin; nothing is embedded across origins.
  crossOriginResourcePolicy: { policy: 'same-origin' },
};

/**
 * Every answer carries helmet's headers for HELMET_OPTIONS. They do not depend on the request (no CSP nonces),
 * so they are taken once from @fastify/helmet itself, answering a probe request, and then set by one
 * callback hook: the plugin would otherwise rebuild helmet from its options on every request (two hooks, one
 * of them async), a measurable share of a small API answer under load (bench/accounts.bench.ts).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  app.addHook('onRequest', (req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (req.url.startsWith('/api/')) reply.raw.setHeader('Cache-Control', API_CACHE_CONTROL);
    done();
  });
}

/**
 * Every API answer is one user's data, and many carry secrets: a profile's credentials, proxy and tokens
 * (`GET /api/accounts/{id}` and each answer with a profile), an AI session's password and proxy
 * (`GET /api/ai/info/{id}`), sign-in tokens, live tickets. None may be kept by a browser or a proxy cache, so
 * `no-store` is the default of the whole API, set before the route runs; an answer that may be cached says
 * so itself (signed media links: `private, max-age`), and its header replaces this one.
 */
export const API_CACHE_CONTROL = 'no-store';

/** The headers @fastify/helmet sets on an answer, with HELMET_OPTIONS. */
export async function helmetHeaders(): Promise<Array<[string, string]>> {
  const probe = Fastify();
  await probe.register(fastifyHelmet, HELMET_OPTIONS);
  probe.get('/', (_req, reply) => reply.raw.getHeaderNames().map((n) => [n, String(reply.raw.getHeader(n))]));
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers = res.json<Array<[string, string]>>();
  if (!headers.some(([n]) => n === 'content-security-policy')) throw new Error('helmet set no security headers');
  return headers;
}
