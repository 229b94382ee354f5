/**
 * Sealing of secrets at rest (platform passwords, client secrets, 2FA codes, OAuth tokens, proxy URLs).
 *
 * - AES-256-GCM with a 256-bit key derived from APP_KEY by HKDF-SHA256 (info "kadr/seal/v1").
 * - Versioned text format: `s1.` + base64url(iv[12] | tag[16] | ciphertext). A value without the
 *   prefix is never returned as plaintext: `open` refuses it.
 * - A key check value (HMAC of a constant under a second HKDF-derived key) is stored in the `settings`
 *   table the first time the app starts; a later start with another APP_KEY is refused with a clear
 *   message instead of failing to open secrets one by one (or, worse, writing new ones under another key).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index';

const PREFIX = 's1.';
const SALT = Buffer.from('kadr-app-key-salt-v1');
export const KEY_CHECK_SETTING = 'seal.key_check';
export const KEY_MISMATCH_MESSAGE =
  'APP_KEY does not match the key this database was sealed with. Start with the original APP_KEY (or restore DATA_DIR/app.key); secrets sealed with it cannot be read with another key.';

export class SealError extends Error {}

function derive(appKey: string, info: string): Buffer {
  if (!appKey || appKey.length < 16) throw new SealError('APP_KEY is missing or shorter than 16 characters');
  return Buffer.from(hkdfSync('sha256', Buffer.from(appKey, 'utf8'), SALT, Buffer.from(info), 32));
}

export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
  /** seal(v) for a non-empty value, null otherwise. */
  sealOpt(plain: string | null | undefined): string | null;
  /** open(v) for a stored value, null otherwise. */
  openOpt(sealed: string | null | undefined): string | null;
  /** The value stored in settings to recognise this key. */
  readonly keyCheck: string;
  /** A separate key for other uses (e.g. signing OAuth state), derived from the same APP_KEY. */
  subKey(purpose: string): string;
}

export function createSealer(appKey: string): Sealer {
  const key = derive(appKey, 'kadr/seal/v1');
  const checkKey = derive(appKey, 'kadr/key-check/v1');
  const keyCheck = createHmac('sha256', checkKey).update('kadr key check').digest('base64url');
  const seal = (plain: string) => {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return PREFIX + Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64url');
  };
  const open = (sealed: string) => {
    if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) throw new SealError('not a sealed value');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < 28) throw new SealError('sealed value is truncated');
    const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    } catch {
      throw new SealError('sealed value cannot be opened with this APP_KEY');
    }
  };
  return {
    seal,
    open,
    sealOpt: (v) => (v == null || v === '' ? null : seal(v)),
    openOpt: (v) => (v == null || v === '' ? null : open(v)),
    keyCheck,
    subKey: (purpose) => derive(appKey, `kadr/${purpose}/v1`).toString('base64url'),
  };
}

/**
 * Stores the key check on first start; afterwards refuses a different APP_KEY with KEY_MISMATCH_MESSAGE.
 * Needs the `settings` table (migration 002).
 */
export async function ensureSealKey(db: Db, sealer: Sealer): Promise<void> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY_CHECK_SETTING).executeTakeFirst();
  if (!row) {
    await db
      .insertInto('settings')
      .values({ key: KEY_CHECK_SETTING, value: sealer.keyCheck })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return ensureSealKey(db, sealer);
  }
  const a = Buffer.from(String(row.value));
  const b = Buffer.from(sealer.keyCheck);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new SealError(KEY_MISMATCH_MESSAGE);
}
