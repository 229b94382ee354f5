import type { PlatformKey } from '../../src/contract/platforms';
import type { Sealer } from '../../server/crypto/seal';
import type { Db } from '../../server/db/index';

/** A platform's tokens as its OAuth callback leaves them (valid for years), sealed for a profile's platform row. */
export const connectedTokens = (sealer: Pick<Sealer, 'seal'>): string =>
  sealer.seal(JSON.stringify({ accessToken: 'a', refreshToken: 'r', expiresAt: '2099-01-01T00:00:00.000Z' }));

/** What a seed sets of a profile's state on one platform (a field left out keeps its value, or its default). */
export type PlatformStateSeed = {
  tokensSealed?: string | null;
  active?: boolean;
  error?: string | null;
  handle?: string | null;
  avatar?: string | null;
};

/** One profile's state on one platform, as a seed sets it. */
export type PlatformStateRow = PlatformStateSeed & { accountId: number; platform: PlatformKey };

/**
 * Writes profiles' states on platforms straight into their `account_platforms` rows (migration 021), as a
 * connection, a lost grant or a profile re-read leaves them: the one way seeds set them. Rows go in batches of
 * the same fields (a seed of many profiles gives each the same ones).
 */
export async function setPlatformStates(db: Db, rows: PlatformStateRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 250) {
    const values = rows.slice(i, i + 250).map(({ active, ...rest }) => ({
      ...rest,
      ...(active === undefined ? {} : { active: active ? 1 : 0 }),
    }));
    const fields = Object.keys(values[0]!).filter((k) => k !== 'accountId' && k !== 'platform');
    await db
      .insertInto('accountPlatforms')
      .values(values)
      .onConflict((oc) => {
        const key = oc.columns(['accountId', 'platform']);
        if (!fields.length) return key.doNothing();
        return key.doUpdateSet((eb) => Object.fromEntries(fields.map((f) => [f, eb.ref(`excluded.${f as 'active'}`)])));
      })
      .execute();
  }
}

/** One profile's state on one platform (setPlatformStates). */
export const setPlatformState = (db: Db, accountId: number, platform: PlatformKey, seed: PlatformStateSeed) =>
  setPlatformStates(db, [{ ...seed, accountId, platform }]);

/** A profile connected to a platform with tokens that stay valid (connectedTokens). */
export const connectPlatform = (db: Db, sealer: Pick<Sealer, 'seal'>, accountId: number, platform: PlatformKey) =>
  setPlatformState(db, accountId, platform, { tokensSealed: connectedTokens(sealer), active: true });
