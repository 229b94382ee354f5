import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/index';
import type { AiVideosTable } from '../db/types';
import { paginate } from '../http/paginate';
import type { Exec } from '../publications/publications.repository';

export type AiVideoRow = Selectable<AiVideosTable> & {
  sessionEmail: string | null;
  pubStatus: string | null;
  pubError: string | null;
};

/** Generated videos (and, once published, their row in `videos` for the platform outcome): Kysely only. */
export class AiVideosRepository {
  constructor(private db: Db) {}

  private base(scope: number | null) {
    const q = this.db.selectFrom('aiVideos');
    return scope === null ? q : q.where('aiVideos.userId', '=', scope);
  }

  private cols<T extends ReturnType<AiVideosRepository['base']>>(q: T) {
    return q
      .leftJoin('aiSessions', 'aiSessions.id', 'aiVideos.sessionId')
      .leftJoin('videos', 'videos.id', 'aiVideos.videoId')
      .selectAll('aiVideos')
      .select((eb) => [
        'aiSessions.email as sessionEmail',
        'videos.status as pubStatus',
        eb.fn.coalesce('videos.error', 'videos.errorTikTok', 'videos.errorInstagram').as('pubError'),
      ]);
  }

  /** The review list: everything but rejected videos, newest first. */
  list(scope: number | null, page: number) {
    return paginate(
      this.base(scope).where('aiVideos.status', '!=', 'rejected'),
      page,
      (q) => this.cols(q).orderBy('aiVideos.id', 'desc'),
      (r) => r as AiVideoRow,
    );
  }

  async get(scope: number | null, id: number): Promise<AiVideoRow | undefined> {
    return (await this.cols(this.base(scope)).where('aiVideos.id', '=', id).executeTakeFirst()) as
      AiVideoRow | undefined;
  }

  async insert(row: Insertable<AiVideosTable>): Promise<number> {
    return (await this.db.insertInto('aiVideos').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(id: number, patch: Updateable<AiVideosTable>, exec: Exec = this.db): Promise<void> {
    await exec
      .updateTable('aiVideos')
      .set({ ...patch, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Sets `patch` only while the video is still at `attempt` and loading (a reject or a recreate wins). */
  async updateIfCurrent(id: number, attempt: number, patch: Updateable<AiVideosTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('aiVideos')
      .set({ ...patch, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .where('status', '=', 'loading')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Which of `keys` (under ai/) a row still names: an AI video or a screenshot (the orphan media sweep). */
  async knownKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const [videos, shots] = await Promise.all([
      this.db.selectFrom('aiVideos').select('storageKey as key').where('storageKey', 'in', keys).execute(),
      this.db.selectFrom('aiScreenshots').select('storageKey as key').where('storageKey', 'in', keys).execute(),
    ]);
    return new Set([...videos, ...shots].flatMap((r) => (r.key ? [r.key] : [])));
  }

  /** The profile a session publishes to: its own account, else one whose idGPT names it. */
  async sessionAccount(sessionId: number): Promise<number | null> {
    const s = await this.db.selectFrom('aiSessions').select('accountId').where('id', '=', sessionId).executeTakeFirst();
    if (s?.accountId) return s.accountId;
    const a = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('idGpt', '=', String(sessionId))
      .executeTakeFirst();
    return a?.id ?? null;
  }

  /** Marks a finished video as being published, unless another call got there first (then false). */
  async claimForPublishing(id: number, exec: Exec): Promise<boolean> {
    const r = await exec
      .updateTable('aiVideos')
      .set({ status: 'publication', updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'success')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
