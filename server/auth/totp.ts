import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODES } from '../../src/contract/two-factor';

/**
 * TOTP as authenticator apps expect it (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps), by otplib. A code of
 * the previous or the next step is accepted too (clocks drift), and never one of a step at or before the last
 * one accepted for the user (a code seen over a shoulder cannot be used again).
 */
export const TOTP_ISSUER = 'Kadr';
const TOLERANCE_SEC = 30;

export const newTotpSecret = () => generateSecret();

export const totpUri = (login: string, secret: string) => generateURI({ issuer: TOTP_ISSUER, label: login, secret });

/** The step `code` is valid for (after `afterStep`), or null. */
export async function totpStep(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const r = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SEC,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return r.valid && 'timeStep' in r ? r.timeStep : null;
}

/** What a user typed, without spaces and dashes, lower-cased: `12 34 56` → `123456`, `ABCDE-FGHIJ` → `abcdefghij`. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i

/** Ten recovery codes `xxxxx-xxxxx` (10 characters of 31, about 49 bits each). */
export const newRecoveryCodes = (): string[] =>
  Array.from({ length: RECOVERY_CODES }, () => {
    const c = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });

/** A recovery code as stored: SHA-256 of its normalized form (random codes need no slow hash). */
export const recoveryHash = (code: string) => createHash('sha256').update(normalizeCode(code)).digest('hex');
