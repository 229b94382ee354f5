/**
 * The platforms Kadr publishes to, one adapter each (server/platforms/adapter.ts). The server reaches a platform
 * only through here; the composition root may hand the services another list (tests add a platform that way).
 */
import type { PlatformKey } from '../../src/contract/platforms';
import type { PlatformAdapter } from './adapter';
import { instagram } from './instagram/instagram.adapter';
import { tiktok } from './tiktok/tiktok.adapter';
import { youtube } from './youtube/youtube.adapter';

export type PlatformRegistry = Readonly<Record<PlatformKey, PlatformAdapter>>;

export const PLATFORM_REGISTRY: PlatformRegistry = { youtube, tiktok, instagram };

/** The registry's adapters in its order. */
export const adaptersOf = (registry: PlatformRegistry): PlatformAdapter[] => Object.values(registry);
