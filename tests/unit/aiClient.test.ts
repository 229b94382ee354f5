import { makeHttpClient } from '../../src/providers/httpClient';
import { aiClient, AI_BASE_URL } from '../../src/providers/aiClient';
import { readAuth, signIn } from '../../src/providers/authStore';

/** A fake AI service on another origin that wants the current token, and the main API's refresh. */
function fakeServers() {
  const calls: { url: string; auth: string | null }[] = [];
  let valid = 'access-1';
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const auth = new Headers(init.headers).get('Authorization');
    calls.push({ url, auth });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url === '/api/auth/refresh') {
      valid = 'access-2';
      return json(200, { accessToken: 'access-2', refreshToken: 'refresh-2' });
    }
    return auth === `Bearer ${valid}` ? json(200, { success: true, message: 'ok' }) : json(401, { message: 'expired' });
  }) as typeof fetch;
  return { calls, expire: () => (valid = 'rotated-elsewhere') };
}

describe('the AI client', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'access-1', 'refresh-1');
  });

  it('is the same origin by default', async () => {
    expect(AI_BASE_URL).toBe('');
    const s = fakeServers();
    await aiClient('/api/ai/info');
    expect(s.calls[0]).toEqual({ url: '/api/ai/info', auth: 'Bearer access-1' });
  });

  it('calls its base URL with the bearer token, refreshes once on a 401 through the main API and retries once', async () => {
    const s = fakeServers();
    const client = makeHttpClient('http://ai.example:4000');
    s.expire();
    const { json } = await client('/api/ai/setting/stop', { method: 'POST', body: '{"email":"a@b.c"}' });
    expect(json).toEqual({ success: true, message: 'ok' });
    expect(s.calls.map((c) => c.url)).toEqual([
      'http://ai.example:4000/api/ai/setting/stop',
      '/api/auth/refresh',
      'http://ai.example:4000/api/ai/setting/stop',
    ]);
    expect(s.calls[2]!.auth).toBe('Bearer access-2');
    expect(readAuth().refreshToken).toBe('refresh-2');
  });
});
