import { sql } from 'kysely';
import type { LoginLimits } from '../config';
import type { Db } from '../db/index';

/**
 * Sign-in throttling that an attacker cannot turn against the people it protects. Three counts, each kept in
 * the database (login_failures) so every API process sharing it counts together and a restart keeps them:
 * - `pair:<address>|<login>`, a hard limit of `maxFailures` per window: guessing one login from one address;
 * - `ip:<address>`, a hard limit of ADDRESS_FACTOR × `maxFailures` (an office shares one address, so a
 *   colleague's typos must not lock everybody out): guessing many logins from one address;
 * - `login:<login>` across addresses, no lock but a delay before the password is checked, doubling with each
 *   failure past `maxFailures` up to `maxDelayMs`, so strangers cannot lock the owner out, only slow them.
 * An attempt reserves its place in the pair and address counts atomically before the password is checked,
 * so parallel guesses cannot race past the limit; a success gives back its address place and clears only
 * its own pair. A window lasts `lockSec` after the last counted attempt.
 */
export const ADDRESS_FACTOR = 10;
/** The first delay, at `maxFailures` failures of one login; each further failure doubles it. */
export const FIRST_DELAY_MS = 500;

export type SignInAttempt = { login: string; address: string };

export class LoginThrottle {
  constructor(
    private db: Db,
    private limits: LoginLimits,
    private now = () => Date.now(),
  ) {}

  /**
   * Reserves the attempt in its pair and address counts. Returns 0 when it may go on, else the seconds until
   * the window that refuses it ends (nothing is counted then).
   */
  async reserve(attempt: SignInAttempt): Promise<number> {
    const [pair, address] = keysOf(attempt);
    const pairWait = await this.take(pair, this.limits.maxFailures);
    if (pairWait) return pairWait;
    const addressWait = await this.take(address, this.limits.maxFailures * ADDRESS_FACTOR);
    if (addressWait) await this.giveBack(pair);
    return addressWait;
  }

  /** Milliseconds to wait before checking a password for this login: its failures from every address. */
  async delayMs(login: string): Promise<number> {
    const row = await this.db
      .selectFrom('loginFailures')
      .select('count')
      .where('key', '=', loginKey(login))
      .where('untilMs', '>', this.now())
      .executeTakeFirst();
    const over = Number(row?.count ?? 0) - this.limits.maxFailures;
    if (over < 0) return 0;
    return Math.min(this.limits.maxDelayMs, FIRST_DELAY_MS * 2 ** Math.min(over, 30));
  }

  /** A reserved attempt failed: it stays counted in its pair and address, and counts for the login. */
  async fail(attempt: SignInAttempt): Promise<void> {
    const t = this.now();
    await this.db
      .insertInto('loginFailures')
      .values({ key: loginKey(attempt.login), count: 1, untilMs: this.until(t) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ count: this.countAfter(t), untilMs: this.until(t) }))
      .execute();
    await this.db.deleteFrom('loginFailures').where('untilMs', '<=', t).execute();
  }

  /** A reserved attempt succeeded: its pair is cleared, its address place given back; other counts stay. */
  async succeed(attempt: SignInAttempt): Promise<void> {
    const [pair, address] = keysOf(attempt);
    await this.db.deleteFrom('loginFailures').where('key', '=', pair).execute();
    await this.giveBack(address);
  }

  /** Counts one attempt for `key` unless its window is full; returns 0, or the seconds the window has left. */
  private async take(key: string, limit: number): Promise<number> {
    const t = this.now();
    const taken = await this.db
      .insertInto('loginFailures')
      .values({ key, count: 1, untilMs: this.until(t) })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ count: this.countAfter(t), untilMs: this.until(t) })
          .where((eb) => eb.or([eb('loginFailures.untilMs', '<=', t), eb('loginFailures.count', '<', limit)])),
      )
      .returning('count')
      .executeTakeFirst();
    if (taken) return 0;
    const row = await this.db.selectFrom('loginFailures').select('untilMs').where('key', '=', key).executeTakeFirst();
    return Math.max(1, Math.ceil((Number(row?.untilMs ?? t) - t) / 1000));
  }

  private giveBack(key: string) {
    return this.db
      .updateTable('loginFailures')
      .set({ count: sql<number>`count - 1` })
      .where('key', '=', key)
      .where('count', '>', 0)
      .execute();
  }

  private until(t: number) {
    return t + this.limits.lockSec * 1000;
  }

  /** A key whose window has passed starts again at 1. */
  private countAfter(t: number) {
    return sql<number>`CASE WHEN login_failures.until_ms <= ${t} THEN 1 ELSE login_failures.count + 1 END`;
  }
}

const loginKey = (login: string) => `login:${login.toLowerCase()}`;
const keysOf = ({ login, address }: SignInAttempt) => [`pair:${address}|${login.toLowerCase()}`, `ip:${address}`];
