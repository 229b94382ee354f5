import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { safeExtend } from 'zod/mini';
import {
  AuthUserSchema,
  LanguageSchema,
  LoginAnswerSchema,
  LoginResponseSchema,
  LoginSchema,
  RefreshResponseSchema,
  RefreshSchema,
  SessionTokenSchema,
} from '../../src/contract/auth';
import { errorResponses, NoContent } from '../../src/contract/http';
import { PasswordChangeSchema } from '../../src/contract/users';
import { LoginCodeSchema } from '../../src/contract/two-factor';
import { API_TAGS, BEARER, SESSION_ONLY } from '../http/openapi';
import type { AuthService } from './auth.service';
import { requireUser } from './guards';

const tags = [API_TAGS.auth];

export async function authRoutes(app: FastifyInstance, { auth }: { auth: AuthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in',
        description:
          'A user with two-factor sign-in on gets `{ twoFactor: true, challenge }`: send it with a code to /api/auth/login/code.',
        body: LoginSchema,
        response: { 200: LoginAnswerSchema, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => auth.login(req.body, req.ip),
  );

  r.post(
    '/api/auth/login/code',
    {
      schema: {
        tags,
        summary: 'Sign in, second step: a code from the authenticator app or a recovery code',
        body: LoginCodeSchema,
        response: { 200: LoginResponseSchema, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => auth.loginWithCode(req.body, req.ip),
  );

  r.post(
    '/api/auth/refresh',
    {
      schema: {
        tags,
        summary: 'New tokens for a refresh token (rotated)',
        body: RefreshSchema,
        response: { 200: RefreshResponseSchema, ...errorResponses(400, 401, 500) },
      },
    },
    async (req) => auth.refresh(req.body.refreshToken),
  );

  r.post(
    '/api/auth/logout',
    {
      schema: {
        tags,
        summary: "Sign out: revokes the refresh token's family",
        body: SessionTokenSchema,
        response: { 204: NoContent, ...errorResponses(400, 500) },
      },
    },
    async (req, reply) => {
      await auth.logout(req.body.refreshToken);
      return reply.status(204).send();
    },
  );

  r.get(
    '/api/auth/me',
    {
      preValidation: requireUser,
      schema: {
        tags,
        security: BEARER,
        summary: 'The signed-in user',
        response: { 200: AuthUserSchema, ...errorResponses(401, 500) },
      },
    },
    async (req) => req.user,
  );

  r.put(
    '/api/auth/language',
    {
      preValidation: requireUser,
      schema: {
        tags,
        security: BEARER,
        summary: 'Set own interface language (the panel opens in it on any browser)',
        body: LanguageSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 500) },
      },
    },
    async (req, reply) => {
      await auth.setLanguage(req.user.id, req.body.language);
      return reply.status(204).send();
    },
  );

  r.post(
    '/api/auth/password',
    {
      preValidation: requireUser,
      schema: {
        tags,
        security: SESSION_ONLY,
        summary: 'Change own password (ends the other sessions)',
        body: safeExtend(PasswordChangeSchema, SessionTokenSchema.shape),
        response: { 204: NoContent, ...errorResponses(400, 401, 500) },
      },
    },
    async (req, reply) => {
      await auth.changePassword(req.user.id, req.body, req.body.refreshToken, req.ip);
      return reply.status(204).send();
    },
  );
}
