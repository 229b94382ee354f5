import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring media links: `/api/media/<key>?exp=<unix seconds>&sig=<HMAC-SHA256(key \n exp)>`.
 * <img> and <video> send no bearer header, so the API hands these links only to whoever may see the
 * object (its owner or an admin), inside its JSON responses. Expiry is rounded up to a whole window so the
 * same object keeps the same link for a while and the browser cache works across page loads.
 */
export class MediaSigner {
  constructor(
    private key: Buffer | string,
    private ttlSec: number,
    private windowSec = 3600,
  ) {}

  private mac(key: string, exp: number) {
    return createHmac('sha256', this.key).update(`${key}\n${exp}`).digest('base64url');
  }

  /** The signed URL path (relative to the API origin) of a storage key. */
  url(key: string, nowMs = Date.now()): string {
    const minExp = Math.floor(nowMs / 1000) + this.ttlSec;
    const exp = Math.ceil(minExp / this.windowSec) * this.windowSec;
    return `/api/media/${key.split('/').map(encodeURIComponent).join('/')}?exp=${exp}&sig=${this.mac(key, exp)}`;
  }

  /** 'ok', or why the link is refused (both answer 403). */
  verify(key: string, exp: unknown, sig: unknown, nowMs = Date.now()): 'ok' | 'expired' | 'bad-signature' {
    if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string' || sig.length > 100)
      return 'bad-signature';
    const expected = Buffer.from(this.mac(key, Number(exp)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
    if (Number(exp) * 1000 < nowMs) return 'expired';
    return 'ok';
  }
}
