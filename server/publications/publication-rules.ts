import { toId } from '../../src/contract/ids';
import { PLATFORM_TITLES, type PlatformKey } from '../../src/contract/platforms';
import { PM } from '../../src/contract/publications';
import { encodeMessage } from '../../src/contract/stored-message';
import { AppError } from '../http/errors';
import type { PublishAccount } from './publications.repository';

/** The publication service's small rules and refusals (SPEC §5), each a 400 naming its field. */

/** `{id}` of a route: a row id, or an idUpload (16 hex digits may look like a number too big to be an id). */
export function refOf(raw: string): { id: number } | { idUpload: string } | null {
  const id = /^\d+$/.test(raw) ? toId(raw) : 0;
  if (id > 0) return { id };
  return /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? { idUpload: raw } : null;
}

/** A 400 naming `field`; the field's message carries the same parameters as the answer's (a stored message). */
export const fieldError = (field: string, key: string, args: Record<string, string | number> = {}) =>
  new AppError(400, key, { [field]: encodeMessage(key, args) }, args);

export const notConnected = (field: string, account: number, platform: PlatformKey) =>
  fieldError(field, PM.accountNotConnected, { account, platform: PLATFORM_TITLES[platform] });

export const TOGGLE_FIELD: Record<PlatformKey, string> = {
  youtube: 'inYouTube',
  tiktok: 'inTikTok',
  instagram: 'inInstagram',
};

export const alreadyPublished = () => fieldError('idUpload', PM.alreadyPublished);

/** Every chosen platform must be connected on the video's profile (a 400 naming the field otherwise). */
export function checkAccount(
  account: PublishAccount | undefined,
  field: string,
  platforms: readonly PlatformKey[],
): void {
  if (!account) throw fieldError(field, PM.accountUnavailable);
  const off = platforms.find((p) => !account.connected[p]);
  if (off) throw notConnected(field, account.id, off);
}
