import { toId } from '../../src/contract/ids';
import { inListOrder, type PlatformKey } from '../../src/contract/platforms';
import { PM, publishPlan, type Choice } from '../../src/contract/publications';
import { encodeMessage } from '../../src/contract/stored-message';
import { AppError } from '../http/errors';
import { platformTitle } from '../platforms/types';
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
  fieldError(field, PM.accountNotConnected, { account, platform: platformTitle(platform) });

export const alreadyPublished = () => fieldError('idUpload', PM.alreadyPublished);

/** The platforms a profile is connected to, as a list (any platform of the registry; typed as the panel's list). */
export const connectedOf = (a: PublishAccount): PlatformKey[] =>
  inListOrder(Object.keys(a.connected).filter((p) => a.connected[p])) as PlatformKey[];

/**
 * The form's plan (src/contract publishPlan), for the publish form and the publication edit alike: each video on
 * its profile's chosen platforms that the profile is connected to, the rest reported as skipped. Only a form
 * that would publish nothing at all is refused.
 */
export function planOrRefuse(
  videos: readonly { id: number; account: number | null }[],
  choice: Choice,
  accounts: Map<number, PublishAccount>,
) {
  const plan = publishPlan(videos, choice, (id) => {
    const a = accounts.get(id);
    return a ? connectedOf(a) : [];
  });
  if (![...plan.publish.values()].some((p) => p.length)) throw fieldError('inYouTube', PM.nothingToPublish);
  return plan;
}

/** The platforms some video of the plan goes to, in the list's order. */
export const usedPlatforms = (publish: Map<number, PlatformKey[]>): PlatformKey[] =>
  inListOrder([...publish.values()].flat());
