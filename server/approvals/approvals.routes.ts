import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApprovalDecisionSchema, ApprovalItemSchema, ApprovalRejectSchema } from '../../src/contract/approvals';
import { API } from '../../src/contract/endpoints';
import { errorResponses, IdParams, pageOf, PageQuery } from '../../src/contract/http';
import { actingOf, requireAdmin } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { ApprovalsService } from './approvals.service';

const doc = { tags: [API_TAGS.approvals], security: BEARER };
const fails = errorResponses(400, 401, 403, 404, 409, 500);

/** Approval before posting (issue 23 item 3): admin-only on the server (403 for a user). */
export async function approvalsRoutes(app: FastifyInstance, { approvals }: { approvals: ApprovalsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before validation, so a caller without the right gets 401/403 whatever the input.
  r.addHook('preValidation', requireAdmin);
  r.get(
    API.approvals.list,
    {
      schema: {
        ...doc,
        summary: 'The posts awaiting approval',
        description: 'Posts of users whose publications need approval, stopped where they became due; soonest first.',
        querystring: PageQuery,
        response: { 200: pageOf(ApprovalItemSchema), ...fails },
      },
    },
    async (req) => approvals.list(req.query.page),
  );
  r.post(
    API.approvals.approve,
    {
      schema: {
        ...doc,
        summary: 'Approve a post: it goes out at its date, or at once when the date has passed',
        params: IdParams,
        response: { 200: ApprovalDecisionSchema, ...fails },
      },
    },
    async (req) => approvals.approve(actingOf(req), req.params.id),
  );
  r.post(
    API.approvals.reject,
    {
      schema: {
        ...doc,
        summary: 'Reject a post with a reason: it ends failed, the reason shown to its owner',
        params: IdParams,
        body: ApprovalRejectSchema,
        response: { 200: ApprovalDecisionSchema, ...fails },
      },
    },
    async (req) => approvals.reject(actingOf(req), req.params.id, req.body.reason),
  );
}
