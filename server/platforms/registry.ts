/**
 * The platforms Kadr publishes to, one adapter each (server/platforms/adapter.ts). The server reaches a platform
 * only through here; the composition root may hand the services another list (tests add a platform that way).
 */
import type { PlatformAdapter } from './adapter';
import type { PlatformId } from './types';
import { instagram } from './instagram/instagram.adapter';
import { tiktok } from './tiktok/tiktok.adapter';
import { youtube } from './youtube/youtube.adapter';

/** The adapters by id: the panel's platforms, plus any a registry adds (a test's, through the root's override). */
export type PlatformRegistry = Readonly<Record<PlatformId, PlatformAdapter>>;

export const PLATFORM_REGISTRY: PlatformRegistry = { youtube, tiktok, instagram };

/** The registry's adapters in its order. */
export const adaptersOf = (registry: PlatformRegistry): PlatformAdapter[] => Object.values(registry);
