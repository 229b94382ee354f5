import net from 'node:net';
import { describeEachDb } from '../helpers/app';

/** A hand-built multipart body with one file part. */
function multipart(filename: string, fields: Record<string, string> = {}, boundary = 'kadrMalformed123') {
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const file =
    `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${filename}"\r\n` +
    `Content-Type: image/png\r\n\r\nnot really a png\r\n--${boundary}--\r\n`;
  return { payload: parts.join('') + file, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const deepAccounts = (levels: number) => `{"name":"g","accounts":${'['.repeat(levels)}${']'.repeat(levels)}}`;

// Malformed input answers 4xx naming the field, never a 5xx, never repeating the URL (issue 9, item 5).
describeEachDb('malformed input', (ctx) => {
  let auth: string;
  let folderId: number;

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    auth = (await ctx.login('boss', 'boss-pass')).headers.authorization;
    const f = await ctx.call({
      method: 'POST',
      url: '/api/folder/photo-bg',
      token: { authorization: auth },
      payload: { name: 'F' },
    });
    folderId = f.body.id;
  });

  const corpus = (): [string, Record<string, any>, number, string][] => [
    [
      'multipart without a boundary',
      { method: 'POST', url: '/api/photo-bg', headers: { 'content-type': 'multipart/form-data' }, payload: 'x' },
      400,
      'body',
    ],
    [
      'multipart with a 300-character boundary',
      {
        method: 'POST',
        url: '/api/photo-bg',
        ...multipart('a.png', { folderId: String(folderId) }, 'b'.repeat(300)),
      },
      400,
      'body',
    ],
    [
      'multipart cut short',
      {
        method: 'POST',
        url: '/api/photo-bg',
        headers: multipart('a.png').headers,
        payload: '--kadrMalformed123\r\nContent-Disp',
      },
      400,
      'body',
    ],
    [
      "a NUL in an upload's file name",
      { method: 'POST', url: '/api/photo-bg', ...multipart('a\u0000b.png', { folderId: String(folderId) }) },
      400,
      'files[]',
    ],
    [
      "a NUL in the clip's file name",
      {
        method: 'POST',
        url: '/api/create-video/create',
        ...multipart('clip\u0000.mp4', { folderId: String(folderId) }),
      },
      400,
      'files[]',
    ],
    [
      'accounts nested 20,000 levels deep',
      {
        method: 'POST',
        url: '/api/accounts-group',
        headers: { 'content-type': 'application/json' },
        payload: deepAccounts(20_000),
      },
      400,
      'body',
    ],
    [
      'broken JSON',
      {
        method: 'POST',
        url: '/api/accounts-group',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      },
      400,
      'body',
    ],
    [
      'prototype poisoning',
      {
        method: 'POST',
        url: '/api/accounts-group',
        headers: { 'content-type': 'application/json' },
        payload: '{"__proto__":{"x":1}}',
      },
      400,
      'body',
    ],
    [
      'an unsupported content type',
      { method: 'POST', url: '/api/accounts-group', headers: { 'content-type': 'text/x-kadr' }, payload: 'x' },
      415,
      'content-type',
    ],
    [
      'a JSON body over the limit',
      {
        method: 'POST',
        url: '/api/accounts-group',
        headers: { 'content-type': 'application/json' },
        payload: `{"name":"${'x'.repeat(1_100_000)}"}`,
      },
      413,
      'body',
    ],
    [
      'a media URL that cannot be decoded',
      { method: 'GET', url: '/api/media/x%ZZ?exp=1&sig=SECRETSIGNATURE' },
      400,
      'url',
    ],
    [
      'JSON on an upload route',
      { method: 'POST', url: '/api/photo-bg', headers: { 'content-type': 'application/json' }, payload: '{}' },
      400,
      'body',
    ],
  ];

  it('every request of the corpus is a 4xx naming its field, translated, without the URL', async () => {
    const seen: string[] = [];
    for (const [what, req, status, field] of corpus()) {
      for (const lang of ['uk', 'en']) {
        const r = await ctx.app.inject({
          ...req,
          headers: { ...req.headers, authorization: auth, 'accept-language': lang },
        } as any);
        const body = r.json();
        seen.push(what);
        expect({ what, status: r.statusCode, field: Object.keys(body.errors ?? {}) }).toEqual({
          what,
          status,
          field: [field],
        });
        expect(body.message).not.toMatch(/kadr\.|SECRETSIGNATURE|\/api\//);
        expect(JSON.stringify(body)).not.toContain('SECRETSIGNATURE');
      }
    }
    expect(seen.length).toBe(corpus().length * 2);
  });

  it('an empty JSON body on a DELETE is no body, not an error', async () => {
    const f = await ctx.call({
      method: 'POST',
      url: '/api/folder/photo-bg',
      token: { authorization: auth },
      payload: { name: 'Del' },
    });
    expect(f.body.id).toBeGreaterThan(0);
    const headers = { authorization: auth, 'content-type': 'application/json' };
    const r = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/folder/photo-bg/${f.body.id}`,
      headers,
      payload: '',
    });
    expect(r.statusCode).toBe(200);
  });

  it('an answer sent before the body was read closes the connection instead of leaving it to a reset', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (ctx.app.server.address() as net.AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    // A 404 route with a large body announced, only a part of it sent.
    socket.write(
      `POST /api/no-such-route HTTP/1.1\r\nHost: kadr.test\r\nContent-Type: application/octet-stream\r\nContent-Length: 10000000\r\n\r\n`,
    );
    socket.write(Buffer.alloc(64 * 1024));
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 404 /);
    expect(received.toLowerCase()).toContain('connection: close');
  });
});
