import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AccountDeletedSchema,
  AccountFormSchema,
  AccountListItemSchema,
  AccountPatchSchema,
  AccountRecordSchema,
  AccountVideoItemSchema,
  AccountWithNoticeSchema,
  AuthorizeUrlSchema,
  ChannelDescriptionSchema,
  GptIdSchema,
  InstagramProfileSchema,
  OAuthCallbackQuerySchema,
  PlatformQuerySchema,
} from '../../src/contract/accounts';
import { errorResponses, IdParams, noContent, pageOf, PageQuery } from '../../src/contract/http';
import { AccountListQuery } from '../../src/contract/list-queries';
import { actingOf, requireUser } from '../auth/guards';
import { localeOf, translate } from '../http/i18n';
import { API_TAGS, BEARER } from '../http/openapi';
import { adaptersOf, type PlatformRegistry } from '../platforms/registry';
import type { AccountsService } from './accounts.service';

const fails = errorResponses(400, 401, 404, 500);
/** Platform calls may also fail: 409 not connected, 502 the platform or the proxy refused. */
const platformFails = errorResponses(400, 401, 404, 409, 502, 500);

/** SPEC §7 Accounts, plus the OAuth links and callbacks (the callbacks are public: the signed state decides). */
export async function accountsRoutes(
  app: FastifyInstance,
  { accounts, platforms }: { accounts: AccountsService; platforms: PlatformRegistry },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.accounts], security: BEARER };
  const one = { ...doc, params: IdParams };
  r.get(
    '/api/accounts',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'List profiles',
        description: 'Search `q` (names, comment, id), filters `status`, `platform` (connected), `userId` (admins).',
        querystring: AccountListQuery,
        response: { 200: pageOf(AccountListItemSchema), ...fails },
      },
    },
    async (req) => accounts.list(req.user, req.query),
  );
  r.post(
    '/api/accounts',
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Create a profile',
        body: AccountFormSchema,
        response: { 201: AccountRecordSchema, ...fails },
      },
    },
    async (req, reply) => reply.status(201).send(await accounts.create(actingOf(req), req.body)),
  );
  r.get(
    '/api/accounts/:id',
    {
      ...auth,
      schema: { ...one, summary: 'Read a profile', response: { 200: AccountRecordSchema, ...fails } },
    },
    async (req) => accounts.get(req.user, req.params.id),
  );
  r.patch(
    '/api/accounts/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: 'Edit a profile',
        description: 'Any subset of the form; validated whole after merging over the stored profile.',
        body: AccountPatchSchema,
        response: { 200: AccountRecordSchema, ...fails },
      },
    },
    async (req) => accounts.update(actingOf(req), req.params.id, req.body),
  );
  r.delete(
    '/api/accounts/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: 'Delete a profile (its videos are kept, detached)',
        response: { 200: AccountDeletedSchema, ...fails },
      },
    },
    async (req) => accounts.remove(req.user, req.params.id),
  );
  r.get(
    '/api/accounts/:id/video',
    {
      ...auth,
      schema: {
        ...one,
        summary: "A profile's videos",
        querystring: PageQuery,
        response: { 200: pageOf(AccountVideoItemSchema), ...fails },
      },
    },
    async (req) => accounts.videos(req.user, req.params.id, req.query.page),
  );
  r.patch(
    '/api/accounts/update-channel/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: "Change the YouTube channel's description",
        body: ChannelDescriptionSchema,
        response: { 200: AccountRecordSchema, ...platformFails },
      },
    },
    async (req) => accounts.updateChannel(req.user, req.params.id, req.body),
  );
  r.patch(
    '/api/accounts/update-profile-inst/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: 'Instagram name and biography (kept in Kadr only)',
        body: InstagramProfileSchema,
        response: { 200: AccountWithNoticeSchema, ...fails },
      },
    },
    async (req) => {
      const res = await accounts.updateInstagramProfile(req.user, req.params.id, req.body);
      return { ...res, notice: translate(res.notice, localeOf(req.headers['accept-language'])) };
    },
  );
  r.patch(
    '/api/accounts/gpt/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: "Set the AI service's session id",
        body: GptIdSchema,
        response: { 200: AccountRecordSchema, ...fails },
      },
    },
    async (req) => accounts.setGpt(req.user, req.params.id, req.body),
  );
  r.post(
    '/api/accounts/sync/:id',
    {
      ...auth,
      schema: {
        ...one,
        summary: "Re-read a connected platform's profile",
        querystring: PlatformQuerySchema,
        response: { 200: AccountRecordSchema, ...platformFails },
      },
    },
    async (req) => accounts.syncProfile(req.user, req.params.id, req.query.platform),
  );
  for (const { id: platform, connectPath } of adaptersOf(platforms)) {
    r.post(
      connectPath,
      {
        ...auth,
        schema: {
          ...one,
          summary: `The ${platform} authorization link`,
          response: { 200: AuthorizeUrlSchema, ...platformFails },
        },
      },
      async (req) => accounts.authorizeUrl(req.user, req.params.id, platform),
    );
  }
  // One callback per platform: an unknown platform in the path is no route (the JSON 404).
  for (const { id: platform } of adaptersOf(platforms)) {
    r.get(
      `/api/oauth/${platform}/callback`,
      {
        schema: {
          tags: [API_TAGS.oauth],
          summary: `The ${platform} OAuth callback`,
          querystring: OAuthCallbackQuerySchema,
          response: {
            302: noContent(
              'Back to the profile (`/accounts/{id}?connected=…` or `?connect_error=…`) or the profile list',
            ),
            ...errorResponses(400, 500),
          },
        },
      },
      async (req, reply) =>
        reply
          .header('Cache-Control', 'no-store')
          .redirect((await accounts.callback(platform, req.query)).location, 302),
    );
  }
}
