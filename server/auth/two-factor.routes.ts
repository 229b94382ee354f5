import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, IdParams, NoContent } from '../../src/contract/http';
import {
  RecoveryCodesSchema,
  TwoFactorCodeSchema,
  TwoFactorOffSchema,
  TwoFactorPolicySchema,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
} from '../../src/contract/two-factor';
import { API_TAGS, BEARER } from '../http/openapi';
import { actingOf, requireAdmin, requireUser } from './guards';
import type { TwoFactorService } from './two-factor.service';

const own = { tags: [API_TAGS.auth], security: BEARER };
const admin = { tags: [API_TAGS.users], security: BEARER };

/** Two-factor sign-in: a user's own enrolment and switch-off; an admin's policy and reset of a user's. */
export async function twoFactorRoutes(app: FastifyInstance, { twoFactor }: { twoFactor: TwoFactorService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/auth/two-factor',
    {
      preValidation: requireUser,
      schema: {
        ...own,
        summary: 'Own two-factor state',
        response: { 200: TwoFactorStatusSchema, ...errorResponses(401, 500) },
      },
    },
    async (req) => twoFactor.status(req.user.id),
  );
  r.post(
    '/api/auth/two-factor/setup',
    {
      preValidation: requireUser,
      schema: {
        ...own,
        summary: 'Start enrolment: a new secret and its QR code (confirm it with a code)',
        response: { 200: TwoFactorSetupSchema, ...errorResponses(401, 409, 500) },
      },
    },
    async (req) => twoFactor.setup(actingOf(req)),
  );
  r.post(
    '/api/auth/two-factor/enable',
    {
      preValidation: requireUser,
      schema: {
        ...own,
        summary: 'Confirm enrolment with a code; answers the ten recovery codes, once',
        body: TwoFactorCodeSchema,
        response: { 200: RecoveryCodesSchema, ...errorResponses(400, 401, 409, 500) },
      },
    },
    async (req) => twoFactor.enable(actingOf(req), req.body.code),
  );
  r.post(
    '/api/auth/two-factor/disable',
    {
      preValidation: requireUser,
      schema: {
        ...own,
        summary: 'Turn own two-factor sign-in off (password again; refused while an admin requires it)',
        body: TwoFactorOffSchema,
        response: { 204: NoContent, ...errorResponses(400, 401, 409, 500) },
      },
    },
    async (req, reply) => {
      await twoFactor.disable(actingOf(req), req.body.password);
      return reply.status(204).send();
    },
  );
  r.get(
    '/api/two-factor/policy',
    {
      preValidation: requireAdmin,
      schema: {
        ...admin,
        summary: 'Whether two-factor sign-in is required of everyone',
        response: { 200: TwoFactorPolicySchema, ...errorResponses(401, 403, 500) },
      },
    },
    async () => ({ required: await twoFactor.required() }),
  );
  r.put(
    '/api/two-factor/policy',
    {
      preValidation: requireAdmin,
      schema: {
        ...admin,
        summary: 'Require two-factor sign-in of everyone (users without it are sent to enrol after signing in)',
        body: TwoFactorPolicySchema,
        response: { 200: TwoFactorPolicySchema, ...errorResponses(400, 401, 403, 500) },
      },
    },
    async (req) => twoFactor.setRequired(actingOf(req), req.body.required),
  );
  r.delete(
    '/api/users/:id/two-factor',
    {
      preValidation: requireAdmin,
      schema: {
        ...admin,
        summary: "Reset a user's two-factor sign-in (a lost phone): they sign in with the password, then enrol",
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (req, reply) => {
      await twoFactor.reset(actingOf(req), req.params.id);
      return reply.status(204).send();
    },
  );
}
