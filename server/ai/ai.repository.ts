import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AiProvider } from '../../src/contract/ai';
import type { Db } from '../db/index';
import type { AiLogsTable, AiMessagesTable, AiSessionsTable } from '../db/types';
import { paginate } from '../http/paginate';
import { IDENTITY_COLUMNS, type IdentityRowColumns } from '../accounts/account-identity';
import { withPlatformRows } from '../accounts/platform-state';

export type SessionRow = Selectable<AiSessionsTable> & {
  ownerLogin: string;
  accountName: string | null;
  accountExists: number | null;
} & IdentityRowColumns;
export type MessageRow = Selectable<AiMessagesTable>;
export type LogRow = Selectable<AiLogsTable> & { sessionEmail: string | null };
/** A session by id, by email (within one owner), or both (the id, if it is a session of that email). */
export type SessionKey = { id: number; email?: string } | { id?: undefined; email: string };

/**
 * AI sessions, their chat turns, screenshots and the AI log: Kysely only. `scope` is ownerScope(): null for
 * an admin (all rows), else the owner's id; a row out of scope reads as missing.
 */
export class AiRepository {
  constructor(private db: Db) {}

  private sessions(scope: number | null) {
    const q = this.db.selectFrom('aiSessions');
    return scope === null ? q : q.where('aiSessions.userId', '=', scope);
  }

  private sessionCols<T extends ReturnType<AiRepository['sessions']>>(q: T) {
    return q
      .innerJoin('users', 'users.id', 'aiSessions.userId')
      .leftJoin('accounts', 'accounts.id', 'aiSessions.accountId')
      .$call(withPlatformRows)
      .selectAll('aiSessions')
      .select([
        'users.login as ownerLogin',
        'accounts.comments as accountName',
        'accounts.id as accountExists',
        ...IDENTITY_COLUMNS,
      ]);
  }

  listSessions(scope: number | null, page: number) {
    return paginate(
      this.sessions(scope),
      page,
      (q) => this.sessionCols(q).orderBy('aiSessions.id', 'desc'),
      (r) => r as SessionRow,
    );
  }

  /** One session by id (and, if given, its email), or by email: unique per owner, so give a user's scope. */
  async session(scope: number | null, by: SessionKey): Promise<SessionRow | undefined> {
    let q = this.sessionCols(this.sessions(scope));
    if (by.id !== undefined) q = q.where('aiSessions.id', '=', by.id);
    if (by.email !== undefined) q = q.where('aiSessions.email', '=', by.email);
    return (await q.executeTakeFirst()) as SessionRow | undefined;
  }

  /** Up to `limit` sessions of an email across all owners (an admin's by-email call: is there only one?). */
  async sessionsWithEmail(email: string, limit: number): Promise<SessionRow[]> {
    const rows = await this.sessionCols(this.sessions(null))
      .where('aiSessions.email', '=', email)
      .orderBy('aiSessions.id')
      .limit(limit)
      .execute();
    return rows as SessionRow[];
  }

  /** Whether `id` is a session of `userId` (PATCH /api/accounts/gpt). */
  async isSessionOf(userId: number, id: number): Promise<boolean> {
    const r = await this.sessions(userId).select('id').where('id', '=', id).executeTakeFirst();
    return Boolean(r);
  }

  async insertSession(row: Insertable<AiSessionsTable>): Promise<number> {
    return (await this.db.insertInto('aiSessions').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateSession(id: number, patch: Updateable<AiSessionsTable>): Promise<void> {
    await this.db
      .updateTable('aiSessions')
      .set({ ...patch, updatedAt: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** The sealed browser login state of one provider (ai_sessions.browser_state_*_sealed). */
  async browserState(id: number, provider: AiProvider): Promise<string | null> {
    const col = provider === 'gpt' ? 'browserStateGptSealed' : 'browserStateDeepseekSealed';
    const r = await this.db.selectFrom('aiSessions').select(col).where('id', '=', id).executeTakeFirst();
    return (r as Record<string, string | null> | undefined)?.[col] ?? null;
  }

  async setBrowserState(id: number, provider: AiProvider, sealed: string | null): Promise<void> {
    await this.updateSession(
      id,
      provider === 'gpt' ? { browserStateGptSealed: sealed } : { browserStateDeepseekSealed: sealed },
    );
  }

  /** Deletes the session and unlinks it from the profiles that named it (idGPT). */
  async deleteSession(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('accounts').set({ idGpt: null, isActiveGpt: 0 }).where('idGpt', '=', String(id)).execute();
      await trx.deleteFrom('aiSessions').where('id', '=', id).execute();
    });
  }

  /** The profile a login names, if `scope` may use it: its owner. */
  account(scope: number | null, id: number) {
    const q = this.db.selectFrom('accounts').select(['id', 'userId']).where('id', '=', id);
    return (scope === null ? q : q.where('userId', '=', scope)).executeTakeFirst();
  }

  // ---- chat ------------------------------------------------------------------------------------------

  /** One provider's whole history, oldest first (the detail view: one request). */
  messages(sessionId: number, provider: AiProvider): Promise<MessageRow[]> {
    return this.db
      .selectFrom('aiMessages')
      .selectAll()
      .where('sessionId', '=', sessionId)
      .where('provider', '=', provider)
      .orderBy('id')
      .execute();
  }

  /** The newest `turns` exchanges, oldest first (what is sent back to the model). */
  async recentMessages(sessionId: number, provider: AiProvider, turns: number): Promise<MessageRow[]> {
    if (turns <= 0) return [];
    const rows = await this.db
      .selectFrom('aiMessages')
      .selectAll()
      .where('sessionId', '=', sessionId)
      .where('provider', '=', provider)
      .orderBy('id', 'desc')
      .limit(turns)
      .execute();
    return rows.reverse();
  }

  async insertMessage(row: Insertable<AiMessagesTable>): Promise<MessageRow> {
    return this.db.insertInto('aiMessages').values(row).returningAll().executeTakeFirstOrThrow();
  }

  // ---- screenshots -----------------------------------------------------------------------------------

  screenshots(sessionId: number) {
    return this.db
      .selectFrom('aiScreenshots')
      .selectAll()
      .where('sessionId', '=', sessionId)
      .orderBy('id', 'desc')
      .execute();
  }

  async insertScreenshot(sessionId: number, storageKey: string, label: string): Promise<void> {
    await this.db
      .insertInto('aiScreenshots')
      .values({ sessionId, storageKey, label: label.slice(0, 200), createdAt: new Date().toISOString() })
      .execute();
  }

  // ---- log -------------------------------------------------------------------------------------------

  async log(row: Omit<Insertable<AiLogsTable>, 'createdAt'>): Promise<void> {
    await this.db
      .insertInto('aiLogs')
      .values({ ...row, createdAt: new Date().toISOString() })
      .execute();
  }

  /** The 'loading' lines about an AI video take the status it settled in (see AiLog.settle). */
  async settleLogs(videoId: number, status: string): Promise<void> {
    await this.db
      .updateTable('aiLogs')
      .set({ status })
      .where('videoId', '=', videoId)
      .where('status', '=', 'loading')
      .execute();
  }

  listLogs(scope: number | null, page: number) {
    const base =
      scope === null ? this.db.selectFrom('aiLogs') : this.db.selectFrom('aiLogs').where('aiLogs.userId', '=', scope);
    return paginate(
      base,
      page,
      (q) =>
        q
          .leftJoin('aiSessions', 'aiSessions.id', 'aiLogs.sessionId')
          .selectAll('aiLogs')
          .select('aiSessions.email as sessionEmail')
          .orderBy('aiLogs.id', 'desc'),
      (r) => r as LogRow,
    );
  }
}
