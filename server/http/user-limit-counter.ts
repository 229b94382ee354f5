import { sql } from 'kysely';
import type { Db } from '../db/index';
import type { LimitKind, UserLimits } from './user-limits';

/** A refused operation: the kind whose window is full, its limit, and the seconds until the window ends. */
export type LimitRefusal = { kind: LimitKind; limit: number; waitSec: number };

/**
 * Per-user counts of expensive operations, kept in the database (user_limits) so every API process sharing it
 * counts together and a restart keeps them. A window of `windowMs` starts at a user's first operation of a
 * kind; while it lasts at most `max[kind]` are let through, then it frees all at once. Each count is one
 * conditional upsert, so racing requests cannot push a count past its limit on either database.
 */
export class UserLimitCounter {
  constructor(
    private db: Db,
    private limits: UserLimits,
    private now = () => Date.now(),
  ) {}

  /**
   * Counts one operation of every kind in `kinds` for the user, all or none: when one kind is full, the kinds
   * already counted are given back and the refusal returned. A limit of 0 counts nothing.
   */
  async take(userId: number, kinds: readonly LimitKind[]): Promise<LimitRefusal | undefined> {
    const taken: LimitKind[] = [];
    for (const kind of kinds) {
      const limit = this.limits.max[kind];
      if (!limit) continue;
      const waitSec = await this.takeOne(userId, kind, limit);
      if (waitSec) {
        for (const k of taken) await this.giveBack(userId, k);
        return { kind, limit, waitSec };
      }
      taken.push(kind);
    }
    return undefined;
  }

  /** Returns 0 when counted, else the seconds the full window has left (nothing is counted then). */
  private async takeOne(userId: number, kind: LimitKind, limit: number): Promise<number> {
    const t = this.now();
    const until = t + this.limits.windowMs;
    const passed = sql<boolean>`user_limits.until_ms <= ${t}`;
    const taken = await this.db
      .insertInto('userLimits')
      .values({ userId, kind, count: 1, untilMs: until })
      .onConflict((oc) =>
        oc
          .columns(['userId', 'kind'])
          .doUpdateSet({
            count: sql<number>`CASE WHEN ${passed} THEN 1 ELSE user_limits.count + 1 END`,
            untilMs: sql<number>`CASE WHEN ${passed} THEN ${until} ELSE user_limits.until_ms END`,
          })
          .where((eb) => eb.or([eb('userLimits.untilMs', '<=', t), eb('userLimits.count', '<', limit)])),
      )
      .returning('count')
      .executeTakeFirst();
    if (taken) return 0;
    const row = await this.db
      .selectFrom('userLimits')
      .select('untilMs')
      .where('userId', '=', userId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Math.max(1, Math.ceil((Number(row?.untilMs ?? t) - t) / 1000));
  }

  private giveBack(userId: number, kind: LimitKind) {
    return this.db
      .updateTable('userLimits')
      .set({ count: sql<number>`count - 1` })
      .where('userId', '=', userId)
      .where('kind', '=', kind)
      .where('count', '>', 0)
      .execute();
  }
}
