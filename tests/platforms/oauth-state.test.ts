import { signOAuthState, verifyOAuthState } from '../../server/platforms/oauth-state';
import { expectPlatformError } from './helpers';

const KEY = 'test-app-key';

describe('OAuth state', () => {
  it('round-trips account, platform and user', () => {
    const state = signOAuthState({ accountId: 12, platform: 'tiktok', userId: 3 }, KEY);
    expect(state).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(verifyOAuthState(state, KEY, { platform: 'tiktok' })).toMatchObject({
      accountId: 12,
      platform: 'tiktok',
      userId: 3,
    });
    expect(signOAuthState({ accountId: 12, platform: 'tiktok' }, KEY)).not.toBe(
      signOAuthState({ accountId: 12, platform: 'tiktok' }, KEY),
    );
  });

  it('refuses a forged, foreign, expired or other-platform state', async () => {
    const state = signOAuthState({ accountId: 1, platform: 'youtube' }, KEY, { ttlSec: 60 });
    const [data, mac] = state.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(data!, 'base64url').toString()), accountId: 2 }),
    ).toString('base64url');
    for (const bad of [`${forged}.${mac}`, 'garbage', '', `${data}.${mac}.x`]) {
      const err = await expectPlatformError(() => verifyOAuthState(bad, KEY), 'bad-request');
      expect(err.code).toBe('invalid_state');
    }
    await expectPlatformError(() => verifyOAuthState(state, 'other-key'), 'bad-request');
    const expired = await expectPlatformError(
      () => verifyOAuthState(state, KEY, { now: new Date(Date.now() + 120_000) }),
      'bad-request',
    );
    expect(expired.key).toBe('state_expired');
    const other = await expectPlatformError(
      () => verifyOAuthState(state, KEY, { platform: 'instagram' }),
      'bad-request',
    );
    expect(other.key).toBe('state_other_platform');
  });
});
