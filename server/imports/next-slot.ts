import type { PlatformKey } from '../../src/contract/platforms';
import { AppError } from '../http/errors';
import type { Db } from '../db/index';
import type { SlotPlanner } from '../slots/slot-planner';

/**
 * The seam between the import and posting slots (issue 21 item 3): a row dated "next slot" asks for the profile's
 * next free slot on a platform at or after `after`, besides the slots `taken` by the file's earlier rows; null
 * means none (no slots set for that platform, or none free within the search window), reported on the row as
 * "slots not available".
 */
export type NextSlotFinder = (q: {
  accountId: number;
  platform: PlatformKey;
  after: number;
  taken: readonly Date[];
}) => Promise<string | null>;

/** The finder over the posting slots' planner (server/slots/slot-planner.ts): its refusals are "none". */
export const nextSlotOf =
  (planner: SlotPlanner, db: Db): NextSlotFinder =>
  ({ accountId, platform, after, taken }) =>
    planner.place(db, accountId, platform, new Date(after), [], taken).catch((e: unknown) => {
      if (e instanceof AppError) return null;
      throw e;
    });
