import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CurveSchema, DashboardSchema, PeriodQuery, VariantsSchema } from '../../src/contract/analytics';
import { API } from '../../src/contract/endpoints';
import { errorResponses, IdParams } from '../../src/contract/http';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { AnalyticsService } from './analytics.service';

const fails = errorResponses(400, 401, 404, 500);

/** Issue 22: the series behind every analytics chart (the panel's tables and CSV files hold the same numbers). */
export async function analyticsRoutes(app: FastifyInstance, { analytics }: { analytics: AnalyticsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.analytics], security: BEARER };
  r.get(
    API.analytics.dashboard,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Growth over the last 7, 30 or 90 days: totals, per platform, per day, top videos and profiles',
        description:
          'Sums of daily increments (what the counters grew by each day, UTC), never lifetime counters; `previous` ' +
          'is the period before, for the change. A user sees their own posts, an admin everyone’s.',
        querystring: PeriodQuery,
        response: { 200: DashboardSchema, ...fails },
      },
    },
    async (req) => analytics.dashboard(req.user, req.query.days),
  );
  r.get(
    API.analytics.publication,
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A publication's curve: per day and platform, growth and running views",
        params: IdParams,
        response: { 200: CurveSchema, ...fails },
      },
    },
    async (req) => analytics.publication(req.user, req.params.id),
  );
  r.get(
    API.analytics.profile,
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A profile's curve over the period: per day and platform, growth and running views",
        params: IdParams,
        querystring: PeriodQuery,
        response: { 200: CurveSchema, ...fails },
      },
    },
    async (req) => analytics.profile(req.user, req.params.id, req.query.days),
  );
  r.get(
    API.analytics.variants,
    {
      ...auth,
      schema: {
        ...doc,
        summary: "A render request's outputs side by side: variation, posts, views at 24 h and 7 days",
        params: IdParams,
        response: { 200: VariantsSchema, ...fails },
      },
    },
    async (req) => analytics.variants(req.user, req.params.id),
  );
}
