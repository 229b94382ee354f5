import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API } from '../../src/contract/endpoints';
import { errorResponses } from '../../src/contract/http';
import { ImportBodySchema, ImportDoneSchema, ImportReportSchema } from '../../src/contract/imports';
import { requireUser } from '../auth/guards';
import { localeOf } from '../http/i18n';
import { API_TAGS, BEARER } from '../http/openapi';
import type { ImportsService } from './imports.service';

const fails = errorResponses(400, 401, 409, 413, 500);
/** A 10,000-row file with Cyrillic descriptions, as JSON. */
const BODY_LIMIT = 48 * 1024 * 1024;

/** Issue 21 item 4: publications from CSV (a dry run, then all rows or none) and back to CSV. */
export async function importsRoutes(app: FastifyInstance, { imports }: { imports: ImportsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.imports], security: BEARER };
  r.post(
    API.imports.dryRun,
    {
      ...auth,
      bodyLimit: BODY_LIMIT,
      schema: {
        ...doc,
        summary: 'Check a CSV file of publications without writing anything',
        description:
          'Every row with its problems: errors (the file cannot be written) and warnings, each naming its row ' +
          '(the header is row 1) and field. Duplicates (the same rendered video live on the same profile and ' +
          'platform, or twice in the file) are errors unless the row allows a repeat.',
        body: ImportBodySchema,
        response: { 200: ImportReportSchema, ...fails },
      },
    },
    async (req) => imports.dryRun(req.user, req.body.csv, localeOf(req.headers['accept-language'])),
  );
  r.post(
    API.imports.commit,
    {
      ...auth,
      bodyLimit: BODY_LIMIT,
      schema: {
        ...doc,
        summary: 'Write a CSV file of publications: all rows or none',
        description:
          'Checks the file again; with any error nothing is written (a 400 whose `errors` are keyed ' +
          '`rows.{row}.{field}`); otherwise every row is written in one transaction. A duplicate the database ' +
          'refuses (a concurrent write) is a 409 and nothing is written.',
        body: ImportBodySchema,
        response: { 200: ImportDoneSchema, ...fails },
      },
    },
    async (req) => imports.commit(req.user, req.body.csv, localeOf(req.headers['accept-language'])),
  );
  r.get(
    API.imports.export,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The publications as CSV, in the import’s columns',
        description: 'One row per placed video with its live platforms; `;`-separated UTF-8 with a BOM.',
        response: { 200: z.string().describe('text/csv'), ...errorResponses(401, 500) },
      },
    },
    async (req, reply) => {
      const csv = await imports.exportCsv(req.user);
      void reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="publications.csv"');
      return csv;
    },
  );
}
