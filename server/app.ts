import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import fastifyStatic from '@fastify/static';
import fastifyMultipart from '@fastify/multipart';
import type { Config } from './config';
import type { Db, DbKind } from './db/index';
import { M } from '../src/contract/messages';
import { installErrorHandler } from './http/errors';
import { registerOpenapi } from './http/openapi';
import { serializerCompiler, validatorCompiler } from './http/schema';
import { localeOf, translate } from './http/i18n';
import { AuthRepository } from './auth/auth.repository';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import { authRoutes } from './auth/auth.routes';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';
import { usersRoutes } from './users/users.routes';
import { accountsPlugin } from './accounts/accounts.plugin';
import { groupsRoutes } from './groups/groups.routes';
import { tagsRoutes } from './tags/tags.routes';
import { createMedia } from './media/storage/index';
import { mediaRoutes } from './media/media.routes';
import { backgroundsRoutes } from './backgrounds/index';
import { createMediaTools } from './backgrounds/backgrounds.media';
import { videosPlugin } from './videos/index';

export type AppDeps = { config: Config; db: Db; dbKind: DbKind };

/** Paths whose values never reach the logs. */
export const LOG_REDACT = [
  'req.headers.authorization', 'req.headers.cookie', '*.password', '*.newPassword', '*.currentPassword',
  '*.accessToken', '*.refreshToken', '*.token', '*.clientSecret', '*.secret',
  '*.YouTubeAuthClientSecret', '*.YouTubePassword', '*.InstagramPassword', '*.InstagramTwofaCode', '*.passwordGPT', '*.passwordDeepSeek',
  '*.proxy', '*.proxyGPT', '*.code',
];

/** Builds the whole HTTP app. Never listens: main.ts does, tests use app.inject. */
export async function buildApp({ config, db, dbKind }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      redact: { paths: LOG_REDACT, censor: '[redacted]' },
      // OAuth callbacks carry one-time codes and signed media links carry signatures in the query: log the path only.
      serializers: { req: (req) => ({ method: req.method, url: String(req.url).split('?')[0], remoteAddress: req.ip }) },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.decorate('db', db);
  app.decorate('dbKind', dbKind);
  app.decorate('config', config);
  installErrorHandler(app);
  // Routes declare zod schemas (src/contract): requests are validated and answers serialised through them.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await registerOpenapi(app);
  // Shared media: storage (local disk under data/media) and signed links; reach them as app.media.
  const media = createMedia(config);
  app.decorate('media', media);
  void media.storage.sweepStaging().catch((err) => app.log.warn({ err }, 'media staging sweep failed'));

  await app.register(fastifyJwt, {
    secret: config.jwtSecret,
    sign: { expiresIn: config.accessTokenTtlSec },
  });

  const authRepo = new AuthRepository(db);
  const auth = new AuthService(
    authRepo,
    new LoginThrottle(db, config.loginThrottle.maxFailures, config.loginThrottle.lockSec),
    (u) => app.jwt.sign({ sub: u.id, login: u.login, role: u.role }),
    config.refreshTokenTtlSec,
  );
  await app.register(authRoutes, { auth });
  await app.register(usersRoutes, { users: new UsersService(new UsersRepository(db), authRepo) });
  await app.register(accountsPlugin, { config, db });
  await app.register(groupsRoutes, { db });
  await app.register(tagsRoutes, { db });
  await app.register(mediaRoutes, { media });
  // The upload routes, in a context of their own with multipart: streamed through req.parts()/req.file(), no
  // file size limit (SPEC §9). Multipart hooks every request of its context, so the other routes stay out.
  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { limits: { fileSize: Infinity, files: 1000, fields: 100 } });
    await uploads.register(backgroundsRoutes, { db, media, tools: createMediaTools(config) });
    await uploads.register(videosPlugin, { db, dbKind, config, media });
  });

  await servePanel(app, config.panelDir);
  return app;
}

/** The built panel, with an SPA fallback so deep links such as /users/5 load. */
async function servePanel(app: FastifyInstance, dir: string) {
  const index = join(dir, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, {
      root: dir,
      wildcard: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsPage = req.method === 'GET' && !req.url.startsWith('/api/') && existsSync(index);
    if (wantsPage) return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    return reply.status(404).send({ message: translate(M.notFound, localeOf(req.headers['accept-language'])), statusCode: 404 });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: DbKind;
    config: Config;
    media: import('./media/storage/index').Media;
  }
}
