import { httpClient, setLoggedOutHandler } from '../../src/providers/httpClient';
import { readAuth, signIn } from '../../src/providers/authStore';

type Call = { url: string; auth: string | null; body?: string };

/** A fake server: `/api/data` wants the current access token; `/api/auth/refresh` rotates tokens. */
function fakeServer(opts: { refreshOk?: boolean; refreshDelayMs?: number } = {}) {
  const calls: Call[] = [];
  let valid = 'access-1';
  let n = 1;
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const headers = new Headers(init.headers);
    calls.push({ url, auth: headers.get('Authorization'), body: init.body as string | undefined });
    if (url === '/api/auth/refresh') {
      await new Promise((r) => setTimeout(r, opts.refreshDelayMs ?? 5));
      if (opts.refreshOk === false) return new Response(JSON.stringify({ message: 'no' }), { status: 401, headers: { 'Content-Type': 'application/json' } });
      n += 1;
      valid = `access-${n}`;
      return new Response(JSON.stringify({ accessToken: valid, refreshToken: `refresh-${n}` }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    if (headers.get('Authorization') !== `Bearer ${valid}`) {
      return new Response(JSON.stringify({ message: 'expired', statusCode: 401 }), { status: 401, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return { calls, expire: () => { valid = 'server-rotated'; n += 0; }, refreshes: () => calls.filter((c) => c.url === '/api/auth/refresh').length };
}

describe('httpClient', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'access-1', 'refresh-1');
  });

  it('sends the bearer token', async () => {
    const s = fakeServer();
    await httpClient('/api/data');
    expect(s.calls[0].auth).toBe('Bearer access-1');
  });

  it('refreshes once on a 401, stores the rotated tokens and retries the request once', async () => {
    const s = fakeServer();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    const r = await httpClient('/api/data');
    expect(r.json).toEqual({ ok: true });
    expect(s.refreshes()).toBe(1);
    expect(JSON.parse(s.calls.find((c) => c.url === '/api/auth/refresh')!.body!)).toEqual({ refreshToken: 'refresh-1' });
    expect(readAuth()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(s.calls.map((c) => c.url)).toEqual(['/api/data', '/api/auth/refresh', '/api/data']);
  });

  it('shares one refresh among many concurrent 401s', async () => {
    const s = fakeServer({ refreshDelayMs: 30 });
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    const results = await Promise.all(Array.from({ length: 5 }, () => httpClient('/api/data')));
    expect(results.map((r) => r.json.ok)).toEqual([true, true, true, true, true]);
    expect(s.refreshes()).toBe(1);
  });

  it('logs out when the refresh fails while a token was held, and rethrows the 401', async () => {
    fakeServer({ refreshOk: false });
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    let loggedOut = 0;
    setLoggedOutHandler(() => { loggedOut += 1; });
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 401 });
    expect(loggedOut).toBe(1);
    expect(readAuth()).toMatchObject({ isAuthenticated: false, accessToken: null, refreshToken: null });
  });

  it('retries only once: a second 401 after the refresh propagates', async () => {
    const s = fakeServer();
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      s.calls.push({ url, auth: new Headers(init.headers).get('Authorization') });
      if (url === '/api/auth/refresh') return new Response(JSON.stringify({ accessToken: 'x', refreshToken: 'y' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      return new Response('{"message":"nope"}', { status: 401, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 401 });
    expect(s.calls.map((c) => c.url)).toEqual(['/api/data', '/api/auth/refresh', '/api/data']);
  });

  it('does not try to refresh without a refresh token', async () => {
    const s = fakeServer();
    localStorage.clear();
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 401 });
    expect(s.refreshes()).toBe(0);
  });

  it('persists the auth state under "authStore", version 1', () => {
    const raw = JSON.parse(localStorage.getItem('authStore')!);
    expect(raw.version).toBe(1);
    expect(Object.keys(raw.state).sort()).toEqual(['accessToken', 'isAuthenticated', 'isLoading', 'refreshToken', 'user']);
  });
});
