import { encodeMessage, isProxyFailure, splitDetail } from '../../src/contract/stored-message';

describe('splitDetail', () => {
  const unavailable = encodeMessage('kadr.ai_errors.unavailable', { provider: 'GPT' });

  it("keeps a provider's or platform's own words apart, saying whose they are", () => {
    expect(
      splitDetail(encodeMessage('kadr.ai_errors.with_detail', { message: unavailable, detail: 'HTTP 503' })),
    ).toEqual({ message: unavailable, detail: 'HTTP 503', source: 'provider' });
    const proxy = encodeMessage('kadr.platform_errors.proxy_auth', { proxy: '10.0.0.1:8080' });
    expect(splitDetail(encodeMessage('kadr.platform_errors.with_detail', { message: proxy, detail: 'squid' }))).toEqual(
      {
        message: proxy,
        detail: 'squid',
        source: 'platform',
      },
    );
  });

  it('leaves a detail that is our own message (a network reason) in the sentence', () => {
    const reason = encodeMessage('kadr.platform_errors.host_unreachable', { host: 'api.openai.com', reason: 'DNS' });
    const stored = encodeMessage('kadr.ai_errors.with_detail', { message: unavailable, detail: reason });
    expect(splitDetail(stored)).toEqual({ message: stored, detail: null, source: null });
  });

  it('has nothing apart in a plain message or text', () => {
    expect(splitDetail(unavailable)).toEqual({ message: unavailable, detail: null, source: null });
    expect(splitDetail('ffmpeg exited with code 1')).toEqual({
      message: 'ffmpeg exited with code 1',
      detail: null,
      source: null,
    });
  });
});

describe("a profile's proxy failure, told from its other errors", () => {
  const proxy = encodeMessage('kadr.platform_errors.proxy_unreachable', { proxy: '127.0.0.1:1', reason: 'refused' });
  it('is a proxy_* platform error, alone or with the platform’s words after it', () => {
    expect(isProxyFailure(proxy)).toBe(true);
    expect(isProxyFailure(encodeMessage('kadr.platform_errors.with_detail', { message: proxy, detail: 'x' }))).toBe(
      true,
    );
  });
  it('is not a lost grant, a network error, plain text or nothing', () => {
    expect(isProxyFailure(encodeMessage('kadr.platform_errors.reconnect'))).toBe(false);
    expect(isProxyFailure(encodeMessage('kadr.platform_errors.network', { error: 'x' }))).toBe(false);
    expect(isProxyFailure('Проксі недоступний')).toBe(false);
    expect(isProxyFailure(null)).toBe(false);
  });
});
