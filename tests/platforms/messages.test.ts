/** Platform errors are stored as keys with parameters; this is the one place their translations are checked. */
import { en } from '../../i18n/en';
import { uk } from '../../i18n/uk';
import { translate } from '../../server/http/i18n';
import { PlatformError } from '../../server/platforms/types';
import { decodeMessage, encodeMessage, renderMessage } from '../../src/contract/stored-message';
import { storedKey } from './helpers';

const placeholders = (s: string) => [...s.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('stored platform messages', () => {
  it('every key has both languages with the same parameters', () => {
    const ukBlock = uk.kadr.platform_errors as Record<string, string>;
    const enBlock = en.kadr.platform_errors as Record<string, string>;
    expect(Object.keys(enBlock).sort()).toEqual(Object.keys(ukBlock).sort());
    for (const [key, text] of Object.entries(ukBlock))
      expect(placeholders(enBlock[key]!), key).toEqual(placeholders(text));
  });

  it('encodes a key with parameters and decodes it back; plain text is not a key', () => {
    const stored = encodeMessage(storedKey('proxy_auth'), { proxy: '10.0.0.1:8080' });
    expect(stored).toBe('kadr.platform_errors.proxy_auth {"proxy":"10.0.0.1:8080"}');
    expect(decodeMessage(stored)).toEqual({ key: storedKey('proxy_auth'), params: { proxy: '10.0.0.1:8080' } });
    expect(encodeMessage('kadr.accounts.errors.connect_failed')).toBe('kadr.accounts.errors.connect_failed');
    expect(decodeMessage("Проксі недоступний: 1.2.3.4:80 — з'єднання відхилено")).toBeNull();
    expect(decodeMessage('kadr.x {not json}')).toBeNull();
  });

  it('translates a nested reason and the platform detail in Ukrainian and English', () => {
    const refused = new PlatformError({
      kind: 'proxy',
      key: 'proxy_unreachable',
      params: { proxy: '10.0.0.1:8080', reason: encodeMessage(storedKey('net_refused')) },
    });
    expect(translate(refused.message, 'uk')).toBe("Проксі недоступний: 10.0.0.1:8080 — з'єднання відхилено");
    expect(translate(refused.message, 'en')).toBe('Proxy unavailable: 10.0.0.1:8080 — connection refused');

    const lost = new PlatformError({
      kind: 'reconnect',
      key: 'access_lost',
      params: { platform: 'YouTube', reason: refused.message },
    });
    expect(translate(lost.message, 'en')).toBe(
      'Access to YouTube is lost, connect the YouTube account again. Reason: Proxy unavailable: 10.0.0.1:8080 — connection refused',
    );

    const rejected = new PlatformError({
      kind: 'bad-request',
      key: 'rejected',
      params: { platform: 'YouTube' },
      detail: 'badRequest: x',
    });
    expect(rejected.key).toBe('rejected');
    expect(translate(rejected.message, 'uk')).toBe('YouTube відхилив запит: badRequest: x');
    expect(translate(rejected.message, 'en')).toBe('YouTube refused the request: badRequest: x');
  });

  it('keeps rows written before keys readable: a sentence as it is, a plain key translated', () => {
    const old = 'Доступ до YouTube втрачено, підключіть акаунт YouTube заново. Причина: invalid_grant';
    expect(translate(old, 'en')).toBe(old);
    expect(translate('kadr.accounts.errors.connect_failed', 'en')).toBe(en.kadr.accounts.errors.connect_failed);
    expect(renderMessage(old, () => 'never')).toBe(old);
  });
});
