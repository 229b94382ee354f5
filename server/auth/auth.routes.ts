import type { FastifyInstance } from 'fastify';
import { LoginSchema, RefreshSchema } from '../../src/contract/auth';
import { PasswordChangeSchema } from '../../src/contract/users';
import { validate } from '../http/validate';
import type { AuthService } from './auth.service';
import { requireUser } from './guards';

export async function authRoutes(app: FastifyInstance, { auth }: { auth: AuthService }) {
  app.post('/api/auth/login', async (req) => auth.login(validate(LoginSchema, req.body), req.ip));

  app.post('/api/auth/refresh', async (req) => auth.refresh(validate(RefreshSchema, req.body).refreshToken));

  app.post('/api/auth/logout', async (req, reply) => {
    const body = (req.body ?? {}) as { refreshToken?: unknown };
    await auth.logout(typeof body.refreshToken === 'string' ? body.refreshToken : undefined);
    return reply.status(204).send();
  });

  app.get('/api/auth/me', { preHandler: requireUser }, async (req) => req.user);

  app.post('/api/auth/password', { preHandler: requireUser }, async (req, reply) => {
    const keep = (req.body as { refreshToken?: unknown } | null)?.refreshToken;
    await auth.changePassword(req.user.id, validate(PasswordChangeSchema, req.body), typeof keep === 'string' ? keep : undefined);
    return reply.status(204).send();
  });
}
