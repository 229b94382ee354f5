import { httpClient, refreshOrEndSession, RefreshError, refreshPolicy } from '../../src/providers/httpClient';
import { setLoggedOutHandler } from '../../src/providers/sessionEnd';
import { readAuth, signIn, writeAuth } from '../../src/providers/authStore';

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
      if (opts.refreshOk === false)
        return new Response(JSON.stringify({ message: 'no' }), {
          status: 401,
          headers: { 'Content-Type': 'application/json' },
        });
      n += 1;
      valid = `access-${n}`;
      return new Response(JSON.stringify({ accessToken: valid, refreshToken: `refresh-${n}` }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    if (headers.get('Authorization') !== `Bearer ${valid}`) {
      return new Response(JSON.stringify({ message: 'expired', statusCode: 401 }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return {
    calls,
    expire: () => {
      valid = 'server-rotated';
      n += 0;
    },
    refreshes: () => calls.filter((c) => c.url === '/api/auth/refresh').length,
  };
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
    expect(JSON.parse(s.calls.find((c) => c.url === '/api/auth/refresh')!.body!)).toEqual({
      refreshToken: 'refresh-1',
    });
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
    setLoggedOutHandler(() => {
      loggedOut += 1;
    });
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 401 });
    expect(loggedOut).toBe(1);
    expect(readAuth()).toMatchObject({ isAuthenticated: false, accessToken: null, refreshToken: null });
  });

  it('retries only once: a second 401 after the refresh propagates', async () => {
    const s = fakeServer();
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      s.calls.push({ url, auth: new Headers(init.headers).get('Authorization') });
      if (url === '/api/auth/refresh')
        return new Response(JSON.stringify({ accessToken: 'x', refreshToken: 'y' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
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
    expect(Object.keys(raw.state).sort()).toEqual([
      'accessToken',
      'isAuthenticated',
      'isLoading',
      'refreshToken',
      'user',
    ]);
  });
});

describe('httpClient when a refresh fails', () => {
  const json = (body: unknown, status: number) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  /** `/api/data` wants access-2; `/api/auth/refresh` answers the next of `answers` (an Error: network failure). */
  function server(answers: Array<number | Error>) {
    const calls: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push(url);
      if (url === '/api/auth/refresh') {
        const a = answers.shift() ?? 200;
        if (a instanceof Error) throw new TypeError('Failed to fetch');
        if (a !== 200) return json({ message: 'refresh says no' }, a);
        return json({ accessToken: 'access-2', refreshToken: 'refresh-2' }, 200);
      }
      const ok = new Headers(init.headers).get('Authorization') === 'Bearer access-2';
      return ok ? json({ ok: true }, 200) : json({ message: 'expired' }, 401);
    }) as typeof fetch;
    return { refreshes: () => calls.filter((c) => c === '/api/auth/refresh').length };
  }
  let loggedOut = 0;
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    refreshPolicy.retryDelaysMs = [1, 1];
    loggedOut = 0;
    setLoggedOutHandler(() => {
      loggedOut += 1;
    });
  });

  it('retries a refresh that met a network error or a 5xx, and the user stays signed in', async () => {
    const s = server([new Error('offline'), 502]);
    const r = await httpClient('/api/data');
    expect(r.json).toEqual({ ok: true });
    expect(s.refreshes()).toBe(3);
    expect(loggedOut).toBe(0);
    expect(readAuth()).toMatchObject({ isAuthenticated: true, refreshToken: 'refresh-2' });
  });

  it('when the server stays unreachable the call fails without a 401 and the user stays signed in', async () => {
    const s = server([503, new Error('offline'), 500]);
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 500 });
    expect(s.refreshes()).toBe(3);
    expect(loggedOut).toBe(0);
    expect(readAuth()).toMatchObject({ isAuthenticated: true, accessToken: 'stale', refreshToken: 'refresh-1' });
  });

  it('only a 401 from the refresh signs out, without retrying', async () => {
    const s = server([401]);
    await expect(httpClient('/api/data')).rejects.toMatchObject({ status: 401 });
    expect(s.refreshes()).toBe(1);
    expect(loggedOut).toBe(1);
    expect(readAuth()).toMatchObject({ isAuthenticated: false, refreshToken: null });
  });

  it('a 401 for a token another tab has just rotated keeps the session that tab stored', async () => {
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input) === '/api/auth/refresh') {
        writeAuth({ accessToken: 'access-2', refreshToken: 'refresh-from-tab-2' }); // the other tab, meanwhile
        return json({ message: 'reused' }, 401);
      }
      const ok = new Headers(init.headers).get('Authorization') === 'Bearer access-2';
      return ok ? json({ ok: true }, 200) : json({ message: 'expired' }, 401);
    }) as typeof fetch;
    expect((await httpClient('/api/data')).json).toEqual({ ok: true });
    expect(loggedOut).toBe(0);
    expect(readAuth().refreshToken).toBe('refresh-from-tab-2');
  });

  it('a direct call (upload) whose refresh is refused signs the panel out at once', async () => {
    server([401]);
    await expect(refreshOrEndSession()).rejects.toMatchObject({ refused: true });
    expect(loggedOut).toBe(1);
    expect(readAuth().isAuthenticated).toBe(false);
  });

  it('a direct call whose refresh cannot reach the server keeps the panel signed in', async () => {
    server([new Error('offline'), new Error('offline'), new Error('offline')]);
    await expect(refreshOrEndSession()).rejects.toBeInstanceOf(RefreshError);
    expect(loggedOut).toBe(0);
    expect(readAuth()).toMatchObject({ isAuthenticated: true, refreshToken: 'refresh-1' });
  });
});
