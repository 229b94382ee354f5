import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../src/contract/auth';
import { M } from '../../src/contract/messages';
import { API_KEY_PREFIX } from '../../src/contract/personal-keys';
import { AppError } from '../http/errors';
import { checkEnrolment } from './enrol-gate';

/** What an access token carries: the user, and `sid`, the session (refresh-token family) it belongs to. */
export type AccessClaims = { sub: number; login: string; role: AuthUser['role']; sid: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key the request was made with (unset for a session's access token). */
    apiKeyId?: number;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AuthUser;
  }
}

/**
 * preHandler: a valid bearer access token of a live session is required; sets `req.user` with the role the
 * database holds now (a read may use what this process checked within the last second:
 * session-cache.ts). A logged-out, revoked (password change, demotion) or expired session, or a deleted
 * user, is a 401 on the next request; a demoted admin is a user on the next request. A personal API key
 * (`Bearer kadr_…`) stands for its owner instead, within what keys may reach (server/api-keys/api-key-scope.ts).
 * While an admin requires two-factor sign-in, a user without it reaches only enrolment, by session or key
 * (./enrol-gate.ts: a 403 with `code` two_factor_enrolment_required).
 */
export async function requireUser(req: FastifyRequest): Promise<void> {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError(401, M.unauthorized);
  // A personal API key (`kadr_…`): its owner as they are now, within what keys may reach (server/api-keys).
  if (token.startsWith(API_KEY_PREFIX)) {
    const route = req.routeOptions.url ?? '';
    const holder = await req.server.root.services.apiKeys.authenticate(token, req.method, route);
    checkEnrolment(holder.mustEnrol, req.method, route);
    req.user = holder.user;
    req.apiKeyId = holder.keyId;
    return;
  }
  let claims: AccessClaims;
  try {
    // The app's verifier (signature, algorithm, expiry), called directly: req.jwtVerify() would decode the
    // token twice and pass it through a callback waterfall, a measurable share of a small GET under load.
    claims = req.server.jwt.verify<AccessClaims>(token);
  } catch {
    throw new AppError(401, M.unauthorized);
  }
  const userId = Number(claims.sub);
  if (typeof claims.sid !== 'string' || !Number.isSafeInteger(userId)) throw new AppError(401, M.unauthorized);
  // A write may change who is who (role, deletion, password): it always asks the database, and clears the cache.
  const { repos, sessionCache } = req.server.root;
  const reading = req.method === 'GET' || req.method === 'HEAD';
  if (!reading) sessionCache.clear();
  let user = reading ? sessionCache.get(claims.sid, userId) : undefined;
  if (!user) {
    const row = await repos.auth.findSessionUser(claims.sid, userId, new Date().toISOString());
    if (!row) throw new AppError(401, M.unauthorized);
    user = row;
    sessionCache.set(claims.sid, userId, user);
  }
  checkEnrolment(user.mustEnrol, req.method, req.routeOptions.url ?? '');
  req.user = { id: user.id, login: user.login, role: user.role };
}

/** The token of `Authorization: Bearer <token>` (@fastify/jwt's own rule), else undefined. */
function bearerToken(header: string | undefined): string | undefined {
  if (!header || !/^Bearer\s/i.test(header)) return undefined;
  const parts = header.split(' ');
  return parts.length === 2 && parts[1] ? parts[1] : undefined;
}

/** preHandler: the signed-in user must be an admin (403 otherwise). */
export async function requireAdmin(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  await requireUser(req);
  if (req.user.role !== 'admin') throw new AppError(403, M.forbidden);
}

/** A signed-in user acting, with their request's address (what the audit log records of them). */
export type Acting = AuthUser & { ip?: string };

/** The request's user and address, for a service that records what they do (server/audit). */
export const actingOf = (req: FastifyRequest): Acting => ({ ...req.user, ip: req.ip });

/** Ownership rule shared by every domain: admins reach everything, a user only their own rows. */
export const ownerScope = (user: AuthUser): number | null => (user.role === 'admin' ? null : user.id);
