import { httpClient } from '../../src/providers/httpClient';
import { startEarlyGet } from '../../src/providers/earlyGet';
import { signIn, writeAuth } from '../../src/providers/authStore';

/** A fake server counting its calls: `/api/data` answers the current token's own data; any other token gets 401. */
function fakeServer() {
  const calls: Array<{ url: string; auth: string | null }> = [];
  let valid = 'access-1';
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const auth = new Headers(init.headers).get('Authorization');
    calls.push({ url: String(input), auth });
    if (String(input) === '/api/auth/refresh') {
      valid = 'access-2';
      return Response.json({ accessToken: valid, refreshToken: 'refresh-2' });
    }
    if (auth !== `Bearer ${valid}`) return Response.json({ message: 'expired' }, { status: 401 });
    return Response.json({ n: calls.length, auth });
  }) as typeof fetch;
  return { calls, rotate: () => (valid = 'server-rotated') };
}

/** The first list request a cold page starts before its code (src/providers/firstData.ts), taken by the client. */
describe('an early GET', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'access-1', 'refresh-1');
  });

  it("is the client's answer for the same URL, once; the next call asks again", async () => {
    const s = fakeServer();
    startEarlyGet('/api/data?page=1');
    expect(s.calls).toHaveLength(1);
    expect((await httpClient('/api/data?page=1')).json).toEqual({ n: 1, auth: 'Bearer access-1' });
    expect(s.calls).toHaveLength(1);
    expect((await httpClient('/api/data?page=1')).json).toEqual({ n: 2, auth: 'Bearer access-1' });
  });

  it('is not used for another URL, another token or a write', async () => {
    const s = fakeServer();
    startEarlyGet('/api/data?page=1');
    await httpClient('/api/data?page=2');
    await httpClient('/api/data?page=1', { method: 'POST', body: '{}' });
    expect(s.calls.map((c) => c.url)).toEqual(['/api/data?page=1', '/api/data?page=2', '/api/data?page=1']);

    startEarlyGet('/api/data?page=3');
    writeAuth({ accessToken: 'access-1b' });
    s.rotate();
    // The held answer was for the old token: the client asks itself (and refreshes on its 401).
    await httpClient('/api/data?page=3');
    expect(s.calls.slice(3).map((c) => c.url)).toEqual([
      '/api/data?page=3',
      '/api/data?page=3',
      '/api/auth/refresh',
      '/api/data?page=3',
    ]);
  });

  it('refused (401: the stored token had expired) leaves the client to ask, refresh and retry as usual', async () => {
    const s = fakeServer();
    s.rotate();
    startEarlyGet('/api/data?page=1');
    const answer = await httpClient('/api/data?page=1');
    expect(answer.json).toEqual({ n: 4, auth: 'Bearer access-2' });
    expect(s.calls.map((c) => c.url)).toEqual([
      '/api/data?page=1',
      '/api/data?page=1',
      '/api/auth/refresh',
      '/api/data?page=1',
    ]);
  });
});
