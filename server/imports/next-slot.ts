import type { PlatformKey } from '../../src/contract/platforms';

/**
 * The seam between the import and posting slots (issue 21 item 3): a row dated "next slot" asks for the profile's
 * next free slot on a platform at or after `after`; null means none. Posting slots are built in parallel as a
 * pure function; until they are wired here (after the merge), `slotsNotWiredYet` answers none and every
 * "next slot" row is reported as "slots not available".
 */
export type NextSlotFinder = (q: { accountId: number; platform: PlatformKey; after: number }) => Promise<string | null>;

export const slotsNotWiredYet: NextSlotFinder = async () => null;
