import type { GroupListParams } from '../../src/contract/list-queries';
import type { AuthUser } from '../../src/contract/auth';
import { GM, SEARCH_LIMIT, type GroupBody, type GroupPatch, type GroupRecord } from '../../src/contract/groups';
import type { AccountOption } from '../../src/contract/profile-identity';
import { ownerScope } from '../auth/guards';
import { AppError, notFound } from '../http/errors';
import type { GroupRow, GroupsRepository } from './groups.repository';

/**
 * Account groups (SPEC §2, §7). A group belongs to its creator; an admin reaches all of them; anyone else's
 * group by id is a 404. A group only holds profiles its owner may use: a user's own profiles, or any profile
 * for a group an admin owns. Anything else is a 400 naming `accounts`.
 */
export class GroupsService {
  constructor(private repo: GroupsRepository) {}

  list(user: AuthUser, params: GroupListParams) {
    return this.repo.list(ownerScope(user), params);
  }

  async get(user: AuthUser, id: number): Promise<GroupRecord> {
    const row = await this.row(user, id);
    return this.record(row);
  }

  async create(user: AuthUser, body: GroupBody) {
    await this.assertUsable(ownerScope(user), body.accounts);
    const id = await this.repo.insert(user.id, body.name, body.accounts);
    return this.get(user, id);
  }

  async update(user: AuthUser, id: number, body: GroupPatch) {
    const row = await this.row(user, id);
    if (body.accounts) await this.assertUsable(scopeOfOwner(row), body.accounts);
    await this.repo.update(id, body);
    return this.get(user, id);
  }

  async remove(user: AuthUser, id: number) {
    const group = await this.get(user, id);
    await this.repo.delete(id);
    return group;
  }

  /**
   * GET /api/accounts/search?groupId: select options for a group's profile picker. groupId 0 (a new group):
   * the caller's profiles (all for an admin). An existing group: the profiles its owner may use, with the
   * group's members always included (so the picker can show them even when `q` filters them out).
   */
  async search(user: AuthUser, groupId: number, q: string): Promise<AccountOption[]> {
    if (groupId === 0) return this.repo.options(ownerScope(user), q, SEARCH_LIMIT);
    const row = await this.row(user, groupId);
    const [options, members] = await Promise.all([
      this.repo.options(scopeOfOwner(row), q, SEARCH_LIMIT),
      this.repo.members(row.id),
    ]);
    const byId = new Map<number, AccountOption>();
    for (const o of [...members, ...options]) byId.set(o.id, o);
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }

  private async row(user: AuthUser, id: number): Promise<GroupRow> {
    const row = await this.repo.get(ownerScope(user), id);
    if (!row) throw notFound();
    return row;
  }

  private async record(row: GroupRow): Promise<GroupRecord> {
    return {
      id: row.id,
      name: row.name,
      accounts: await this.repo.members(row.id),
      user: { id: row.userId, login: row.ownerLogin },
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /** Every id must be an existing profile within `scope` (null = any profile). */
  private async assertUsable(scope: number | null, ids: number[]) {
    const owners = await this.repo.accountOwners(ids);
    const usable = new Set(owners.filter((o) => scope === null || o.userId === scope).map((o) => o.id));
    if (ids.some((id) => !usable.has(id)))
      throw new AppError(400, GM.accountUnavailable, { accounts: GM.accountUnavailable });
  }
}

/** Which profiles a group may hold: its owner's (or all, when an admin owns it). */
const scopeOfOwner = (row: GroupRow): number | null => (row.ownerRole === 'admin' ? null : row.userId);
