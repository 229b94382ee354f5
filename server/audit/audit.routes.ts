import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditEntrySchema, AuditQuerySchema, type AuditQuery } from '../../src/contract/audit';
import { errorResponses, pageOf } from '../../src/contract/http';
import type { preValidationAsyncHookHandler } from 'fastify';
import { API_TAGS, BEARER } from '../http/openapi';
import type { AuditRepository } from './audit.repository';
import { auditCsv } from './audit-csv';

const doc = { tags: [API_TAGS.audit], security: BEARER };
const fails = errorResponses(400, 401, 403, 500);

/** The audit log, read-only and admin-only (403 for a user): a filtered page, and the same filter as CSV. */
export async function auditRoutes(
  app: FastifyInstance,
  /** `adminOnly`: the admin guard (server/auth/guards.ts requireAdmin), given by the app so audit imports no domain. */
  { audit, adminOnly }: { audit: AuditRepository; adminOnly: preValidationAsyncHookHandler },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Streamed: the reply is the CSV read in batches, not a body the response schema serializes.
  const exportCsv = async (req: FastifyRequest<{ Querystring: AuditQuery }>, reply: FastifyReply) => {
    const { page: _page, ...filter } = req.query;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
      .send(Readable.from(auditCsv(audit.all(filter))));
  };
  r.addHook('preValidation', adminOnly);
  r.get(
    '/api/audit',
    {
      schema: {
        ...doc,
        summary: 'Audit log entries, newest first',
        description: 'Filters: `actor` (login substring), `action`, `objectType`, `objectId`, `from`/`to` (instants).',
        querystring: AuditQuerySchema,
        response: { 200: pageOf(AuditEntrySchema), ...fails },
      },
    },
    async (req) => {
      const { page, ...filter } = req.query;
      return audit.page(filter, page);
    },
  );
  r.get(
    '/api/audit/export',
    {
      schema: {
        ...doc,
        summary: 'The filtered audit log as CSV (streamed, every matching entry)',
        querystring: AuditQuerySchema,
        response: {
          200: {
            description: 'CSV, a header line then one line per entry, newest first',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...fails,
        },
      },
    },
    exportCsv,
  );
}
