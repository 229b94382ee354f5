import { sql } from 'kysely';
import type { Db } from '../db/index';

/**
 * Slows down password guessing: after `maxFailures` failed logins for one login name (or ADDRESS_FACTOR
 * times as many from one address, `ip:` keys) within `lockSec`, further attempts for that key are refused
 * until the window passes. An address gets more room because a whole office shares one: a colleague's
 * typos must not lock everybody out. The counts live in the database (login_failures), so every API
 * process sharing it counts together and a restart does not clear a lock.
 */
export const ADDRESS_FACTOR = 10;

export class LoginThrottle {
  constructor(private db: Db, private maxFailures: number, private lockSec: number, private now = () => Date.now()) {}

  /** Seconds left on a lock for any of the keys, or 0 when attempts are allowed. */
  async retryAfter(keys: string[]): Promise<number> {
    const t = this.now();
    const rows = await this.db.selectFrom('loginFailures').select(['key', 'count', 'untilMs'])
      .where('key', 'in', keys).where('untilMs', '>', t).execute();
    let wait = 0;
    for (const r of rows) {
      if (Number(r.count) >= this.limitOf(r.key)) wait = Math.max(wait, Math.ceil((Number(r.untilMs) - t) / 1000));
    }
    return wait;
  }

  /** Counts a failure for each key: a key whose window has passed starts again at 1; the window restarts. */
  async fail(keys: string[]): Promise<void> {
    const t = this.now();
    const until = t + this.lockSec * 1000;
    for (const key of keys) {
      await this.db.insertInto('loginFailures').values({ key, count: 1, untilMs: until })
        .onConflict((oc) => oc.column('key').doUpdateSet({
          count: sql<number>`CASE WHEN login_failures.until_ms <= ${t} THEN 1 ELSE login_failures.count + 1 END`,
          untilMs: until,
        }))
        .execute();
    }
    await this.db.deleteFrom('loginFailures').where('untilMs', '<=', t).execute();
  }

  async succeed(keys: string[]): Promise<void> {
    await this.db.deleteFrom('loginFailures').where('key', 'in', keys).execute();
  }

  private limitOf(key: string): number {
    return key.startsWith('ip:') ? this.maxFailures * ADDRESS_FACTOR : this.maxFailures;
  }
}
