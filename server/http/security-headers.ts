import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/**
 * The panel's and the API's security headers (@fastify/helmet). The built panel loads only its own scripts
 * (no inline script; MUI's emotion inserts <style> elements, hence 'unsafe-inline' for styles only), shows
 * images and videos from signed media links (same origin) and from blob:/data: previews, talks only to its own
 * API, and may not be framed. The Swagger UI at /api/docs sends its own policy (server/http/openapi.ts).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    // No upgrade-insecure-requests: the panel is also reached over plain HTTP on a LAN address.
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Media links are <img>/<video> sources of the same origin; nothing is embedded across origins.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
