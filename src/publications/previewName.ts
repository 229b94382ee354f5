import type { PlatformKey } from '../contract/platforms';
import type { AccountOption } from '../contract/profile-identity';

/**
 * The name a post preview shows for its profile on `platform`: its @handle there, else its name there, else
 * the operator's own name for the profile (the comment), else its id; nothing while no profile is chosen.
 */
export function previewName(profile: AccountOption | undefined, platform: PlatformKey): string {
  if (!profile) return '';
  const handle = profile.handles?.find((h) => h.platform === platform);
  if (handle?.username) return `@${handle.username}`;
  return handle?.name?.trim() || profile.comments?.trim() || `#${profile.id}`;
}
