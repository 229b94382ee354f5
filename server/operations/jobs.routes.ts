import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { JobRecordSchema, JobSummarySchema } from '../../src/contract/jobs';
import { JobListQuery } from '../../src/contract/list-queries';
import { errorResponses, IdParams, pageOf } from '../../src/contract/http';
import { requireAdmin } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { JobsService } from './jobs.service';

const doc = { tags: [API_TAGS.jobs], security: BEARER };
const fails = errorResponses(400, 401, 403, 404, 500);
const actionFails = errorResponses(400, 401, 403, 404, 409, 500);

/** The Jobs screen's API (issue 20 item 6): admin-only on the server (403 for a user). */
export async function jobsRoutes(app: FastifyInstance, { jobs }: { jobs: JobsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before validation, so a caller without the right gets 401/403 whatever the input.
  r.addHook('preValidation', requireAdmin);
  r.get(
    '/api/jobs',
    {
      schema: {
        ...doc,
        summary: 'List jobs',
        description:
          'Newest first. Search `q` (key or id), filter `kind` and `state` (queued, running, retrying: failed and ' +
          'waiting for its next attempt, dead, done), sort by any column. `lagMs` is claim time minus due time.',
        querystring: JobListQuery,
        response: { 200: pageOf(JobRecordSchema), ...fails },
      },
    },
    async (req) => jobs.list(req.query),
  );
  r.get(
    '/api/jobs/summary',
    {
      schema: {
        ...doc,
        summary: 'Job counts per kind and state, and the oldest due job’s wait',
        response: { 200: JobSummarySchema, ...fails },
      },
    },
    async () => jobs.summary(),
  );
  r.post(
    '/api/jobs/:id/retry',
    {
      schema: {
        ...doc,
        summary: 'Run a dead or retrying job again now',
        description: 'A dead job gets its attempts back. Any other state: 409.',
        params: IdParams,
        response: { 200: JobRecordSchema, ...actionFails },
      },
    },
    async (req) => jobs.retry(req.params.id),
  );
  r.post(
    '/api/jobs/:id/cancel',
    {
      schema: {
        ...doc,
        summary: 'Cancel (remove) a queued job of a kind that is safe to cancel',
        description:
          'Only `accounts.keep-alive` and `publication.stats` (the next pass does the same work). Any other kind ' +
          'answers 409 naming why (a publish step: use the post’s own cancel); a job no longer queued: 409.',
        params: IdParams,
        response: { 200: JobRecordSchema, ...actionFails },
      },
    },
    async (req) => jobs.cancel(req.params.id),
  );
}
