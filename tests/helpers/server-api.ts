/**
 * The test server's API over HTTP as one signed-in user (the first admin unless named): JSON in, JSON out; an
 * answer that is not 2xx throws with its status and body. `api.token` is the access token it signed in with.
 */
export async function signedInApi(srv: { url: string }, login = 'admin', password = 'admin-pass') {
  const r = await fetch(`${srv.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  if (!r.ok) throw new Error(`sign in as ${login}: ${r.status} ${await r.text()}`);
  const token = ((await r.json()) as { accessToken: string }).accessToken;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${srv.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return Object.assign(api, { token });
}

export type SignedInApi = Awaited<ReturnType<typeof signedInApi>>;
