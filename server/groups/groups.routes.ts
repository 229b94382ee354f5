import type { FastifyInstance } from 'fastify';
import { GroupPatchSchema, GroupSchema } from '../../src/contract/groups';
import { requireUser } from '../auth/guards';
import { AppError } from '../http/errors';
import { assertNoNul, parseId, parsePage, validate } from '../http/validate';
import { M } from '../../src/contract/messages';
import type { GroupsService } from './groups.service';

type Q = { Querystring: { page?: string; groupId?: string; q?: string }; Params: { id: string } };

/** `?groupId=`: 0 (or missing) for a new group, else a group id. */
const parseGroupId = (raw: unknown): number => (raw === undefined || raw === '' || raw === '0' ? 0 : parseId(raw, 'groupId'));
const parseQ = (raw: unknown): string => {
  if (raw === undefined) return '';
  if (typeof raw !== 'string' || raw.length > 100) throw new AppError(400, M.validation, { q: 'kadr.validation.too_long' });
  return assertNoNul(raw, 'q');
};

/** SPEC §7: /api/accounts-group CRUD and GET /api/accounts/search?groupId (the group form's profile options). */
export async function groupsRoutes(app: FastifyInstance, { groups }: { groups: GroupsService }) {
  const auth = { preHandler: requireUser };
  app.get<Q>('/api/accounts-group', auth, async (req) => groups.list(req.user, parsePage(req.query.page)));
  app.get<Q>('/api/accounts-group/:id', auth, async (req) => groups.get(req.user, parseId(req.params.id)));
  app.post('/api/accounts-group', auth, async (req, reply) => reply.status(201).send(await groups.create(req.user, validate(GroupSchema, req.body))));
  app.patch<Q>('/api/accounts-group/:id', auth, async (req) => groups.update(req.user, parseId(req.params.id), validate(GroupPatchSchema, req.body)));
  app.delete<Q>('/api/accounts-group/:id', auth, async (req) => groups.remove(req.user, parseId(req.params.id)));
  app.get<Q>('/api/accounts/search', auth, async (req) => groups.search(req.user, parseGroupId(req.query.groupId), parseQ(req.query.q)));
}
