import type { Db } from '../db/index';

/** The setting that makes two-factor sign-in required of everyone. */
export const REQUIRE_TWO_FACTOR = 'auth.require_two_factor';

/** Two-factor state: users' TOTP columns (028), recovery_codes, the policy row of settings. */
export class TwoFactorRepository {
  constructor(private db: Db) {}

  state(userId: number, exec: Db = this.db) {
    return exec
      .selectFrom('users')
      .select(['id', 'login', 'passwordHash', 'totpSecretSealed', 'totpPendingSealed', 'totpLastStep'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  setPending(userId: number, sealed: string) {
    return this.db.updateTable('users').set({ totpPendingSealed: sealed }).where('id', '=', userId).execute();
  }

  /** Turns 2FA on with the pending secret, in `trx`, and replaces the recovery codes; false when none was pending. */
  async confirm(trx: Db, userId: number, pendingSealed: string, step: number, codeHashes: string[]): Promise<boolean> {
    const r = await trx
      .updateTable('users')
      .set({ totpSecretSealed: pendingSealed, totpPendingSealed: null, totpLastStep: step })
      .where('id', '=', userId)
      .where('totpPendingSealed', '=', pendingSealed)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
    await trx
      .insertInto('recoveryCodes')
      .values(codeHashes.map((codeHash) => ({ userId, codeHash, usedAt: null })))
      .execute();
    return true;
  }

  /** Turns 2FA off (secret, pending secret, recovery codes) in `trx`; answers whether it was on or pending. */
  async clear(trx: Db, userId: number): Promise<boolean> {
    const r = await trx
      .updateTable('users')
      .set({ totpSecretSealed: null, totpPendingSealed: null, totpLastStep: null })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totpSecretSealed', 'is not', null), eb('totpPendingSealed', 'is not', null)]))
      .executeTakeFirst();
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Takes the step for the user unless a later or equal one was taken (a code is accepted once). */
  async takeStep(trx: Db, userId: number, step: number): Promise<boolean> {
    const r = await trx
      .updateTable('users')
      .set({ totpLastStep: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totpLastStep', 'is', null), eb('totpLastStep', '<', step)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Spends a recovery code; false when there is no such unused code. */
  async spendRecovery(trx: Db, userId: number, codeHash: string, at: string): Promise<boolean> {
    const r = await trx
      .updateTable('recoveryCodes')
      .set({ usedAt: at })
      .where('userId', '=', userId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async recoveryLeft(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('recoveryCodes')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .where('userId', '=', userId)
      .where('usedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.c);
  }

  /** Which of `userIds` have 2FA on. */
  async enabledAmong(userIds: number[]): Promise<Set<number>> {
    if (!userIds.length) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', userIds)
      .where('totpSecretSealed', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async required(): Promise<boolean> {
    const r = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', REQUIRE_TWO_FACTOR)
      .executeTakeFirst();
    return r?.value === 'true';
  }

  async setRequired(trx: Db, required: boolean) {
    await trx
      .insertInto('settings')
      .values({ key: REQUIRE_TWO_FACTOR, value: String(required) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(required) }))
      .execute();
  }
}
