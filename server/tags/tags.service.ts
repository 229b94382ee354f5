import type { TagSetListParams } from '../../src/contract/list-queries';
import type { AuthUser } from '../../src/contract/auth';
import type { TagSetBody, TagSetPatch, TagSetRecord } from '../../src/contract/tags';
import { ownerScope } from '../auth/guards';
import { notFound } from '../http/errors';
import type { TagsRepository } from './tags.repository';

/**
 * Saved tag sets (SPEC §2 Tags, §7 Tags). A set belongs to its creator; an admin reaches all of them;
 * anyone else's set by id is a 404. Tags arrive normalised by the contract schema (lowercase, trimmed,
 * de-duplicated, no empties).
 */
export class TagsService {
  constructor(private repo: TagsRepository) {}

  list(user: AuthUser, params: TagSetListParams) {
    return this.repo.list(ownerScope(user), params);
  }

  async get(user: AuthUser, id: number): Promise<TagSetRecord> {
    const set = await this.repo.get(ownerScope(user), id);
    if (!set) throw notFound();
    return set;
  }

  async create(user: AuthUser, body: TagSetBody) {
    const id = await this.repo.insert(user.id, body);
    return this.get(user, id);
  }

  async update(user: AuthUser, id: number, body: TagSetPatch) {
    await this.get(user, id);
    await this.repo.update(id, body);
    return this.get(user, id);
  }

  async remove(user: AuthUser, id: number) {
    const set = await this.get(user, id);
    await this.repo.delete(id);
    return set;
  }
}
