import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../src/contract/auth';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: number; login: string; role: AuthUser['role'] };
    user: AuthUser;
  }
}

/** preHandler: a valid bearer access token is required; sets `req.user`. */
export async function requireUser(req: FastifyRequest): Promise<void> {
  try {
    const p = (await req.jwtVerify()) as unknown as { sub: number; login: string; role: AuthUser['role'] };
    req.user = { id: Number(p.sub), login: p.login, role: p.role };
  } catch {
    throw new AppError(401, M.unauthorized);
  }
}

/** preHandler: the signed-in user must be an admin (403 otherwise). */
export async function requireAdmin(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await requireUser(req);
  if (req.user.role !== 'admin') throw new AppError(403, M.forbidden);
}

/** Ownership rule shared by every domain: admins reach everything, a user only their own rows. */
export const ownerScope = (user: AuthUser): number | null => (user.role === 'admin' ? null : user.id);
