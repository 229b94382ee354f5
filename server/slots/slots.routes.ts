import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API } from '../../src/contract/endpoints';
import { errorResponses } from '../../src/contract/http';
import {
  AccountParams,
  CapacityQuery,
  CapacitySchema,
  OverDaysSchema,
  ProfileSlotsSchema,
  QueuedSchema,
  QueueSchema,
  SlotParams,
  SlotsInputSchema,
} from '../../src/contract/slots';
import { requireUser } from '../auth/guards';
import { API_TAGS, BEARER } from '../http/openapi';
import type { SlotsService } from './slots.service';

const fails = errorResponses(400, 401, 404, 500);

/** Issue 21 item 3: posting slots per profile and platform, "add to queue", and the capacity view. */
export async function slotsRoutes(app: FastifyInstance, { slots }: { slots: SlotsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preValidation: requireUser };
  const doc = { tags: [API_TAGS.slots], security: BEARER };
  r.get(
    API.slots.capacity,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Planned posts against each budget, per profile, local day and platform',
        querystring: CapacityQuery,
        response: { 200: CapacitySchema, ...fails },
      },
    },
    async (req) => slots.capacity(req.user, req.query),
  );
  r.get(
    API.slots.overDays,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'The days over some platform’s budget: the days the capacity answer marks over, each once',
        querystring: CapacityQuery,
        response: { 200: OverDaysSchema, ...fails },
      },
    },
    async (req) => slots.overDays(req.user, req.query),
  );
  r.post(
    API.slots.queue,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Add posts to the queue: each to its profile’s next free slot within the platform’s budget',
        body: QueueSchema,
        response: { 200: QueuedSchema, ...fails },
      },
    },
    async (req) => slots.queue(req.user, req.body.posts),
  );
  r.get(
    API.slots.profile,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'A profile’s time zone and posting slots',
        params: AccountParams,
        response: { 200: ProfileSlotsSchema, ...fails },
      },
    },
    async (req) => slots.get(req.user, req.params.accountId),
  );
  r.put(
    API.slots.platform,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Set a profile’s weekly slots on one platform',
        params: SlotParams,
        body: SlotsInputSchema,
        response: { 200: ProfileSlotsSchema, ...fails },
      },
    },
    async (req) => slots.save(req.user, req.params.accountId, req.params.platform, req.body),
  );
  r.delete(
    API.slots.platform,
    {
      ...auth,
      schema: {
        ...doc,
        summary: 'Remove a profile’s slots on one platform',
        params: SlotParams,
        response: { 200: ProfileSlotsSchema, ...fails },
      },
    },
    async (req) => slots.remove(req.user, req.params.accountId, req.params.platform),
  );
}
