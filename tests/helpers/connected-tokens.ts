import type { Sealer } from '../../server/crypto/seal';

/** A platform's tokens as its OAuth callback leaves them (valid for years), sealed for an account row. */
export const connectedTokens = (sealer: Pick<Sealer, 'seal'>): string =>
  sealer.seal(JSON.stringify({ accessToken: 'a', refreshToken: 'r', expiresAt: '2099-01-01T00:00:00.000Z' }));
