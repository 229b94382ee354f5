import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MediaUsageListSchema } from '../../src/contract/media';
import { errorResponses } from '../../src/contract/http';
import { API } from '../../src/contract/endpoints';
import { ownerScope, requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { RetentionRepository } from './retention.repository';

/** GET /api/media-usage: the space media takes, a user's own (one item), every user's for an admin. */
export async function mediaUsageRoutes(app: FastifyInstance, { repo }: { repo: RetentionRepository }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('preValidation', requireUser);
  r.get(
    API.media.usage,
    {
      schema: {
        tags: [API_TAGS.media],
        security: BEARER,
        summary: 'Space taken by stored media',
        description:
          'Uploaded clips, rendered videos and backgrounds still stored, in bytes; what retention removed no longer ' +
          'counts. A user gets their own figure, an admin every user’s.',
        response: { 200: MediaUsageListSchema, ...errorResponses(401, 500) },
      },
    },
    async (req) => ({ items: await repo.usage(ownerScope(req.user)) }),
  );
}
