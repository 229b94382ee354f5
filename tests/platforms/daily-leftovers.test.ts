import { splitDetail } from '../../src/contract/stored-message';
import { translate } from '../../server/http/i18n';
import { tiktokFailReasonError, tiktokOAuthError } from '../../server/platforms/tiktok/tiktok.errors';
import { googleTokenError } from '../../server/platforms/youtube/youtube.errors';

/**
 * Issue 18 item 7: a platform's own words never sit in the middle of a translated sentence. The sentence says
 * what happened in the reader's language; the platform's text is the message's detail, shown on its own line.
 */
describe('platform errors keep the platform’s words apart from the translated reason', () => {
  const shown = (stored: string) => {
    const { message, detail } = splitDetail(stored);
    return { uk: translate(message, 'uk'), en: translate(message, 'en'), detail };
  };

  it('a refresh refused by TikTok or Google: the sentence, then the description as the detail', () => {
    const tiktok = shown(
      tiktokOAuthError(400, {}, { error: 'invalid_grant', error_description: 'Refresh token is expired' }, 'refresh')
        .message,
    );
    expect(tiktok).toEqual({
      uk: 'TikTok відкликав доступ або refresh token прострочений',
      en: 'TikTok revoked access or the refresh token expired',
      detail: 'Refresh token is expired',
    });
    const google = shown(
      googleTokenError(
        400,
        {},
        { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        'refresh',
      ).message,
    );
    expect(google.uk).toMatch(/^Google відкликав доступ або строк дії дозволу минув\. Якщо/);
    expect(google.uk).not.toContain('Token has been');
    expect(google.detail).toBe('Token has been expired or revoked.');
  });

  it('an OAuth error code goes with its description to the detail, not into the sentence', () => {
    const e = shown(
      tiktokOAuthError(400, {}, { error: 'invalid_request', error_description: 'Bad code_verifier' }, 'exchange')
        .message,
    );
    expect(e).toEqual({
      uk: 'TikTok відхилив запит токена',
      en: 'TikTok refused the token request',
      detail: 'invalid_request: Bad code_verifier',
    });
  });

  it('a TikTok fail reason Kadr knows is translated; one it does not know is said as such, its code apart', () => {
    expect(shown(tiktokFailReasonError('spam_risk_text').message)).toMatchObject({ detail: null });
    expect(shown(tiktokFailReasonError('brand_new_reason').message)).toEqual({
      uk: 'TikTok не зміг опублікувати відео: причина, якої Kadr не знає',
      en: 'TikTok could not publish the video: a reason Kadr does not know',
      detail: 'brand_new_reason',
    });
  });
});
