import type { FastifyInstance, RouteOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyCompress from '@fastify/compress';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The domains the API docs group routes by (a route names one in `tags`). */
export const API_TAGS = {
  auth: 'Auth',
  users: 'Users',
  accounts: 'Accounts',
  groups: 'Groups',
  tags: 'Tag sets',
  backgrounds: 'Backgrounds',
  videos: 'Videos',
  publications: 'Publications',
  calendar: 'Calendar',
  approvals: 'Approvals',
  analytics: 'Analytics',
  imports: 'Import',
  slots: 'Posting slots',
  media: 'Media',
  oauth: 'OAuth',
  live: 'Live updates',
  ai: 'AI',
  jobs: 'Jobs',
  apiKeys: 'API keys',
  webhooks: 'Webhooks',
  audit: 'Audit log',
} as const;

/**
 * `security` of a route that needs a bearer access token (the guards requireUser / requireAdmin): a session's
 * access token, or a personal API key (server/api-keys) in the same header.
 */
export const BEARER: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }, { apiKey: [] }];
/** `security` of a route an API key never reaches (keys, webhooks, passwords, two-factor): a session only. */
export const SESSION_ONLY: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }];

const API_KEY_DOC =
  'A personal API key (Settings → API keys), sent as `Authorization: Bearer kadr_…` in place of an access ' +
  "token. It acts with its owner's current role, never more; a `read` key makes GET requests only. Keys never " +
  'reach API keys, webhooks, passwords, two-factor or user changes (403). Each key may make API_KEY_RATE_LIMIT ' +
  'requests a minute (120 by default), then 429 with `Retry-After`. A revoked or expired key is a 401.';

/** Docs of the streamed uploads: their multipart fields become the request body (the route has no body schema). */
const transform: typeof jsonSchemaTransform = (doc) => {
  const { multipartBody, ...schema } = doc.schema ?? {};
  const out = jsonSchemaTransform({ ...doc, schema });
  return multipartBody ? { ...out, schema: { ...out.schema, body: multipartBody } } : out;
};

/**
 * OpenAPI 3 generated from the routes' zod schemas: `GET /api/openapi.json` and the Swagger UI at `/api/docs`.
 * Called on the root instance before the routes (not encapsulated), so every route is collected.
 */
export async function registerOpenapi(app: FastifyInstance): Promise<void> {
  // Every route registered from here on, so a test can hold the document against them.
  const routes: RouteOptions[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => void routes.push(route));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Kadr API',
        description:
          'The API of the Kadr panel. Sign in with `POST /api/auth/login` and send the access token as ' +
          '`Authorization: Bearer …`. Errors are `{message, statusCode, errors: {field: message}}` in the ' +
          'language of `Accept-Language` (Ukrainian by default).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'kadr_…', description: API_KEY_DOC },
        },
      },
      tags: [
        { name: API_TAGS.auth, description: 'Sign in, tokens, own password' },
        { name: API_TAGS.users, description: 'User management (admins only)' },
        { name: API_TAGS.audit, description: 'The append-only audit log (admins only)' },
        { name: API_TAGS.accounts, description: 'Profiles with their proxies and platform credentials' },
        { name: API_TAGS.groups, description: 'Groups of profiles' },
        { name: API_TAGS.tags, description: 'Tag sets' },
        { name: API_TAGS.backgrounds, description: 'Background folders and their pictures and videos' },
        { name: API_TAGS.videos, description: 'Create-video requests and their rendered videos' },
        { name: API_TAGS.publications, description: 'Publishing rendered videos to YouTube, TikTok and Instagram' },
        { name: API_TAGS.imports, description: 'Publications from and to CSV files' },
        { name: API_TAGS.live, description: 'Live updates (server-sent events) and the bell’s notifications' },
        { name: API_TAGS.ai, description: 'The AI service: GPT and DeepSeek sessions, chat, generated videos, logs' },
        { name: API_TAGS.jobs, description: 'The job queue as an operator sees it (admins only)' },
        { name: API_TAGS.apiKeys, description: 'Personal API keys (a session only: keys never manage keys)' },
        {
          name: API_TAGS.webhooks,
          description:
            'Webhooks: Standard Webhooks deliveries (webhook-id, webhook-timestamp, webhook-signature ' +
            '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the `whsec_` secret), retried for about a day',
        },
        { name: API_TAGS.media, description: 'Stored media through signed, expiring links' },
        { name: API_TAGS.oauth, description: 'Platform authorization callbacks (public: the signed state decides)' },
      ],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  // Swagger UI's own policy (hashes of its inline scripts), not framed, no forced HTTPS (plain-HTTP LAN panels);
  // its page sets inline styles, which no hash covers: styles only may be inline there.
  // Swagger UI's files (1.6 MB of JavaScript and CSS, shipped without .gz/.br copies) are compressed on the way
  // out, in their own scope: the API's answers and its live stream are left as they are.
  await app.register(async (docs) => {
    await docs.register(fastifyCompress, { encodings: ['br', 'gzip'] });
    await docs.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      transformStaticCSP: (csp) =>
        csp
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
          .replace(/style-src [^;]*;/, "style-src 'self' 'unsafe-inline';")
          .replace(/\s*upgrade-insecure-requests;/, ''),
    });
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The document is built once, on its first use (a few hundred ms of schema conversion, ~0.9 s on a busy
  // machine): a server that listens builds it just after starting, so the docs' first visitor does not wait.
  app.addHook('onListen', async () => {
    setImmediate(() => {
      try {
        app.swagger();
      } catch (err) {
        app.log.warn({ err }, 'the API document could not be built');
      }
    }).unref();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes registered after the docs (the API the document must describe). */
    apiRoutes: RouteOptions[];
  }
}
