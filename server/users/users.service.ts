import { M } from '../../src/contract/messages';
import type { UserBody, UserPatch } from '../../src/contract/users';
import type { UserListParams } from '../../src/contract/list-queries';
import { AppError, notFound } from '../http/errors';
import { hashPassword, verifyPassword } from '../auth/password';
import type { AuthRepository } from '../auth/auth.repository';
import type { EventBus } from '../events/event-bus';
import type { Acting } from '../auth/guards';
import { actorOf, record } from '../audit/audit';
import type { UsersRepository } from './users.repository';

/** users.needs_approval as stored (0/1), when the body names it (absent: the flag stays as it is). */
const approvalFlag = (v: boolean | undefined) => (v === undefined ? {} : { needsApproval: v ? 1 : 0 });

/**
 * User management (admin-only; the routes enforce the role). Every change is recorded in the audit log in the
 * transaction that makes it: created, edited (the fields changed; a role change and a new password have actions
 * of their own), deleted (the login is kept in the entry).
 */
export class UsersService {
  constructor(
    private repo: UsersRepository,
    private sessions: Pick<AuthRepository, 'revokeAllForUser'>,
    /** An edit or a deletion is recorded as `session.changed`: the user's open streams narrow, widen or end. */
    private events: EventBus,
  ) {}

  list(params: UserListParams) {
    return this.repo.list(params);
  }

  async get(id: number) {
    const user = await this.repo.get(id);
    if (!user) throw notFound();
    return user;
  }

  async create(actor: Acting, body: UserBody) {
    await this.assertLoginFree(body.login);
    const passwordHash = await hashPassword(body.password);
    const role = body.role ?? 'user';
    const id = await this.events.transaction(async (trx) => {
      const id = await this.repo.insert(trx, {
        login: body.login,
        passwordHash,
        role,
        ...approvalFlag(body.needsApproval),
      });
      await record(trx, {
        ...actorOf(actor),
        action: 'user.created',
        objectType: 'user',
        objectId: id,
        detail: { login: body.login, role, needsApproval: Boolean(body.needsApproval) },
      });
      return id;
    });
    return this.get(id);
  }

  async update(actor: Acting, id: number, body: UserPatch) {
    const current = await this.get(id);
    await this.assertLoginFree(body.login, id);
    if (current.role === 'admin' && body.role === 'user' && (await this.repo.countAdmins()) <= 1) {
      throw new AppError(409, M.cannotDemoteLastAdmin, { role: M.cannotDemoteLastAdmin });
    }
    if (actor.id === id && body.role === 'user' && current.role === 'admin') {
      throw new AppError(409, M.cannotDemoteLastAdmin, { role: M.cannotDemoteLastAdmin });
    }
    // No password (or an empty one): the current one stays, and so do the user's sessions.
    const password = body.password;
    const passwordChanged =
      password !== undefined && !(await verifyPassword(password, (await this.repo.passwordHash(id)) ?? ''));
    const patch = {
      login: body.login,
      ...(password !== undefined ? { passwordHash: await hashPassword(password) } : {}),
      role: body.role,
      ...approvalFlag(body.needsApproval),
    };
    // A new password ends the user's sessions (an admin editing themselves keeps theirs). A role change needs no
    // revocation: every request reads the role from the database, so it applies on the user's next request, and
    // the user's open live streams narrow or widen at once (the `session.changed` event).
    await this.events.transaction(async (trx) => {
      if (!(await this.repo.update(trx, id, patch))) return;
      if (actor.id !== id && passwordChanged) await this.sessions.revokeAllForUser(trx, id, new Date().toISOString());
      await this.events.record(trx, { name: 'session.changed', userId: id, payload: {} });
      const entry = { ...actorOf(actor), objectType: 'user', objectId: id };
      const approvalChanged = body.needsApproval !== undefined && body.needsApproval !== current.needsApproval;
      if (body.login !== current.login || approvalChanged)
        await record(trx, {
          ...entry,
          action: 'user.updated',
          detail: {
            ...(body.login !== current.login ? { login: { from: current.login, to: body.login } } : {}),
            ...(approvalChanged ? { needsApproval: { from: current.needsApproval, to: body.needsApproval } } : {}),
          },
        });
      if (body.role && body.role !== current.role)
        await record(trx, { ...entry, action: 'user.role_changed', detail: { from: current.role, to: body.role } });
      if (passwordChanged)
        await record(trx, { ...entry, action: 'user.password_changed', detail: { login: body.login } });
    });
    return this.get(id);
  }

  async remove(actor: Acting, id: number) {
    const user = await this.get(id);
    if (actor.id === id) throw new AppError(409, M.cannotDeleteSelf);
    if (user.role === 'admin' && (await this.repo.countAdmins()) <= 1) throw new AppError(409, M.cannotDeleteLastAdmin);
    await this.events.transaction(async (trx) => {
      await this.repo.delete(trx, id);
      await this.events.record(trx, { name: 'session.changed', userId: id, payload: {} });
      await record(trx, {
        ...actorOf(actor),
        action: 'user.deleted',
        objectType: 'user',
        objectId: id,
        detail: { login: user.login, role: user.role },
      });
    });
    return user;
  }

  async accountsOf(id: number, page: number) {
    await this.get(id);
    return this.repo.accountsOf(id, page);
  }

  async videosOf(id: number, page: number) {
    await this.get(id);
    return this.repo.videosOf(id, page);
  }

  private async assertLoginFree(login: string, exceptId?: number) {
    const other = await this.repo.findByLogin(login);
    if (other && other.id !== exceptId) throw new AppError(409, M.loginTaken, { login: M.loginTaken });
  }
}
