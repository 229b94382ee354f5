import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';
import { M } from '../../src/contract/messages';
import { TM, type TwoFactorSetup, type TwoFactorStatus } from '../../src/contract/two-factor';
import { actorOf, record } from '../audit/audit';
import type { Sealer } from '../crypto/seal';
import type { Db } from '../db/index';
import { AppError, notFound } from '../http/errors';
import type { Acting } from './guards';
import { verifyPassword } from './password';
import { newRecoveryCodes, newTotpSecret, normalizeCode, recoveryHash, totpStep, totpUri } from './totp';
import type { TwoFactorRepository } from './two-factor.repository';

/** How long the answer to a right password stays good for its second step. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

const wrongCode = () => new AppError(400, M.validation, { code: TM.wrongCode });

/**
 * Two-factor sign-in: enrolment (a secret shown as a QR code, confirmed with a code, then ten recovery codes
 * shown once), the sign-in challenge and its code check, turning it off (own password) or resetting it (an
 * admin), and the admin's "required of everyone". The secret is sealed at rest (server/crypto/seal.ts);
 * recovery codes are stored hashed. Every change is recorded in the audit log in its own transaction.
 */
export class TwoFactorService {
  constructor(
    private repo: TwoFactorRepository,
    private db: Db,
    private sealer: Sealer,
    /** HMAC key of the sign-in challenges. */
    private challengeKey: string,
    private now = () => Date.now(),
  ) {}

  async status(userId: number): Promise<TwoFactorStatus> {
    const row = await this.repo.state(userId);
    if (!row) throw notFound();
    return {
      enabled: row.totpSecretSealed !== null,
      required: await this.repo.required(),
      recoveryCodesLeft: await this.repo.recoveryLeft(userId),
    };
  }

  /** A new secret for enrolment (replacing one not yet confirmed); 2FA that is on must be turned off first. */
  async setup(user: Acting): Promise<TwoFactorSetup> {
    const row = await this.repo.state(user.id);
    if (!row) throw notFound();
    if (row.totpSecretSealed) throw new AppError(409, TM.alreadyOn);
    const secret = newTotpSecret();
    await this.repo.setPending(user.id, this.sealer.seal(secret));
    const uri = totpUri(row.login, secret);
    return { secret, uri, qr: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 240 }) };
  }

  /** Confirms the pending secret with a code: 2FA is on, and the recovery codes (returned once) replace any old. */
  async enable(user: Acting, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await this.repo.state(user.id);
    if (!row) throw notFound();
    if (row.totpSecretSealed) throw new AppError(409, TM.alreadyOn);
    if (!row.totpPendingSealed) throw new AppError(409, TM.notPending);
    const step = await totpStep(this.sealer.open(row.totpPendingSealed), normalizeCode(code), null);
    if (step === null) throw wrongCode();
    const recoveryCodes = newRecoveryCodes();
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.repo.confirm(trx, user.id, row.totpPendingSealed!, step, recoveryCodes.map(recoveryHash))))
        throw new AppError(409, TM.notPending);
      await record(trx, { ...actorOf(user), action: 'two_factor.enabled', objectType: 'user', objectId: user.id });
    });
    return { recoveryCodes };
  }

  /** Turns the caller's 2FA off (their password again); refused while an admin requires it. */
  async disable(user: Acting, password: string): Promise<void> {
    const row = await this.repo.state(user.id);
    if (!row) throw notFound();
    if (!(await verifyPassword(password, row.passwordHash)))
      throw new AppError(400, M.validation, { password: M.wrongCurrentPassword });
    if (await this.repo.required()) throw new AppError(409, TM.requiredByAdmin);
    await this.db.transaction().execute(async (trx) => {
      if (await this.repo.clear(trx, user.id))
        await record(trx, { ...actorOf(user), action: 'two_factor.disabled', objectType: 'user', objectId: user.id });
    });
  }

  /** An admin resets a user's 2FA (a lost phone): they sign in with the password alone, and enrol again. */
  async reset(admin: Acting, userId: number): Promise<void> {
    const row = await this.repo.state(userId);
    if (!row) throw notFound();
    await this.db.transaction().execute(async (trx) => {
      if (await this.repo.clear(trx, userId))
        await record(trx, {
          ...actorOf(admin),
          action: 'two_factor.reset',
          objectType: 'user',
          objectId: userId,
          detail: { login: row.login },
        });
    });
  }

  required(): Promise<boolean> {
    return this.repo.required();
  }

  async setRequired(admin: Acting, required: boolean): Promise<{ required: boolean }> {
    await this.db.transaction().execute(async (trx) => {
      await this.repo.setRequired(trx, required);
      await record(trx, { ...actorOf(admin), action: 'two_factor.policy_changed', detail: { required } });
    });
    return { required };
  }

  /**
   * The challenge a right password answers with when the user has 2FA on: `<user id>.<expiry ms>.<HMAC>`, the
   * HMAC also over the password hash, so a password change voids the challenges of the old one.
   */
  challengeFor(user: { id: number; passwordHash: string }): string {
    const exp = this.now() + CHALLENGE_TTL_MS;
    return `${user.id}.${exp}.${this.sign(user.id, exp, user.passwordHash)}`;
  }

  /** The user a live, genuine challenge was made for, else undefined. */
  async userOfChallenge(challenge: string) {
    const m = /^(\d{1,10})\.(\d{1,15})\.([\w-]{43})$/.exec(challenge);
    if (!m) return undefined;
    const [, id, exp] = m;
    if (Number(exp) <= this.now()) return undefined;
    const row = await this.repo.state(Number(id));
    if (!row?.totpSecretSealed) return undefined;
    const want = Buffer.from(this.sign(row.id, Number(exp), row.passwordHash));
    const got = Buffer.from(m[3]!);
    return want.length === got.length && timingSafeEqual(want, got) ? row : undefined;
  }

  /**
   * Checks a sign-in code in `trx` and spends it: a TOTP code of a step after the last one accepted, or an
   * unused recovery code. Answers which it was, or null.
   */
  async spendCode(
    trx: Db,
    user: { id: number; totpSecretSealed: string | null; totpLastStep: number | string | null },
    code: string,
  ): Promise<'totp' | 'recovery' | null> {
    if (!user.totpSecretSealed) return null;
    const typed = normalizeCode(code);
    if (/^\d{6}$/.test(typed)) {
      const last = user.totpLastStep === null ? null : Number(user.totpLastStep);
      const step = await totpStep(this.sealer.open(user.totpSecretSealed), typed, last);
      return step !== null && (await this.repo.takeStep(trx, user.id, step)) ? 'totp' : null;
    }
    if (typed.length !== 10) return null;
    const spent = await this.repo.spendRecovery(trx, user.id, recoveryHash(typed), new Date(this.now()).toISOString());
    return spent ? 'recovery' : null;
  }

  private sign(userId: number, exp: number, passwordHash: string) {
    return createHmac('sha256', this.challengeKey).update(`2fa:${userId}.${exp}.${passwordHash}`).digest('base64url');
  }
}
