import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { describeEachDb, type TestCtx } from '../helpers/app';

/**
 * Lingering close (issue 17, item 4): an answer sent before the request's body was read reaches a client that
 * is still sending (undici, fetch, node:http, a raw socket that writes everything before it reads), and a body
 * that never ends is cut after the bounds in bytes (LINGER_MAX_BYTES) or time (LINGER_TIMEOUT_MS).
 */
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

async function listen(ctx: TestCtx): Promise<number> {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  return (ctx.app.server.address() as net.AddressInfo).port;
}

/** `total` bytes in 64 KiB pieces, each after the previous one has been taken (a body that takes its time). */
async function* slowBody(total: number) {
  for (let sent = 0; sent < total; sent += CHUNK.length) {
    await new Promise((r) => setImmediate(r));
    yield CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
  }
}

/**
 * node:http: writes `total` bytes piece by piece, each after the previous one was flushed, and reads the answer
 * (node:http, like undici, stops sending once a whole answer with `Connection: close` is in). Settles once the
 * request is closed: the answer, and a failed write's or the request's error code.
 */
function nodeHttpPost(port: number, path: string, total: number, headers: http.OutgoingHttpHeaders = {}) {
  type Answer = { status: number; body: any; headers: http.IncomingHttpHeaders };
  return new Promise<Answer & { writeError?: string }>((resolve, reject) => {
    let writeError: string | undefined;
    let answer: Answer | undefined;
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-length': total, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => (answer = { status: res.statusCode!, body: JSON.parse(text), headers: res.headers }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    req.on('close', () =>
      answer ? resolve({ ...answer, writeError }) : reject(new Error(`closed without an answer (${writeError})`)),
    );
    void (async () => {
      for (let sent = 0; sent < total && !req.destroyed; sent += CHUNK.length) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
        const err = await new Promise<Error | null | undefined>((r) => {
          if (!req.write(piece, r)) req.once('drain', () => r(undefined));
        });
        if (err) writeError ??= (err as NodeJS.ErrnoException).code ?? err.message;
      }
      if (!req.destroyed) req.end();
    })();
  });
}

/**
 * A raw client that writes its whole body before it reads anything (as many scripts do). Before lingering
 * close its writes failed with EPIPE/ECONNRESET once the server had answered and closed.
 */
async function writeAllThenRead(port: number, head: string, total: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.pause();
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const write = (b: Buffer | string) =>
    new Promise<void>((r) => {
      if (socket.write(b)) return r();
      socket.once('drain', r);
      socket.once('close', r);
    });
  await write(head);
  for (let sent = 0; sent < total && !socket.destroyed; sent += CHUNK.length) await write(CHUNK);
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.resume();
  await closed;
  return { received, error };
}

/** A client that keeps sending (fast, or a trickle) until the server closes; what it received and sent. */
async function sendForever(port: number, head: string, piece: Buffer, gapMs = 0) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let sent = 0;
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.write(head);
  let open = true;
  void closed.then(() => (open = false));
  while (open) {
    if (!socket.write(piece)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
    sent += piece.length;
    await new Promise((r) => (gapMs ? setTimeout(r, gapMs) : setImmediate(r)));
  }
  return { received, sent };
}

const multipartHead = (path: string, length: number | 'chunked', auth = '') =>
  `POST ${path} HTTP/1.1\r\nHost: kadr.test\r\n${auth}Content-Type: multipart/form-data; boundary=kadr\r\n` +
  (length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`) +
  '\r\n\r\n';

describeEachDb(
  'lingering close: early answers reach clients still sending',
  (ctx) => {
    let port: number;
    beforeAll(async () => {
      port = await listen(ctx);
    });

    it('undici: a refused upload (401 of the auth guard) is read with its JSON error, Connection: close', async () => {
      const res = await request(`http://127.0.0.1:${port}/api/photo-bg`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=kadr', 'content-length': String(6 * MB) },
        body: Readable.from(slowBody(6 * MB)),
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers.connection).toBe('close');
      expect(await res.body.json()).toMatchObject({ statusCode: 401, message: 'Потрібна авторизація' });
    });

    it('fetch: a body sent to no route gets the 404 and its message', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/no-such-upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'accept-language': 'en' },
        body: Readable.toWeb(Readable.from(slowBody(6 * MB))),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: 'Not found' });
    });

    it('node:http, several MB written slowly: the 413 of the body limit, every write flushed', async () => {
      const res = await nodeHttpPost(port, '/api/auth/login', 6 * MB, { 'content-type': 'application/json' });
      expect(res.writeError).toBeUndefined();
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      expect(res.body).toMatchObject({ statusCode: 413, errors: { body: expect.any(String) } });
    });

    it.each([
      ['401: an upload without a token', 'POST /api/photo-bg', 'multipart/form-data; boundary=kadr', 401],
      ['413: a JSON body over the body limit', 'POST /api/auth/login', 'application/json', 413],
      ['404: a body sent to no route', 'PUT /api/no-such-upload', 'application/octet-stream', 404],
    ])('a client that writes all before reading gets the %s', async (_name, line, type, status) => {
      const total = 6 * MB;
      const head = `${line} HTTP/1.1\r\nHost: kadr.test\r\nContent-Type: ${type}\r\nContent-Length: ${total}\r\n\r\n`;
      const r = await writeAllThenRead(port, head, total);
      expect(r.error).toBeUndefined();
      expect(r.received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(JSON.parse(r.received.slice(r.received.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: status });
    });

    it('a refused upload mid-stream (another user’s folder: 404) reaches a client that writes all before reading', async () => {
      const owner = await ctx.createUser('linger-owner', 'owner-pass');
      await ctx.createUser('linger-other', 'other-pass');
      const folder = await ctx.tdb.db
        .insertInto('backgroundFolders')
        .values({
          userId: owner,
          name: 'mine',
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { accessToken } = await ctx.login('linger-other', 'other-pass');
      const total = 6 * MB;
      const parts =
        `--kadr\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folder.id}\r\n` +
        `--kadr\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
      const head = multipartHead('/api/photo-bg', parts.length + total, `Authorization: Bearer ${accessToken}\r\n`);
      const r = await writeAllThenRead(port, head + parts, total);
      expect(r.error).toBeUndefined();
      expect(r.received).toMatch(/^HTTP\/1\.1 404 /);
      expect(r.received).toMatch(/connection: close/i);
      expect(JSON.parse(r.received.slice(r.received.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 404 });
    });

    it('node:http: a 401 on a create-video upload, then the server still answers on a new connection', async () => {
      const res = await nodeHttpPost(port, '/api/create-video/create', 6 * MB, {
        'content-type': 'multipart/form-data; boundary=kadr',
        authorization: 'Bearer not-a-token',
      });
      expect(res.writeError).toBeUndefined();
      expect(res.status).toBe(401);
      const after = await request(`http://127.0.0.1:${port}/api/auth/me`);
      expect(after.statusCode).toBe(401);
      await after.body.dump();
    });
  },
  { lingering: { maxBytes: 64 * MB, timeoutMs: 60_000 } },
);

describeEachDb(
  'lingering close: bounded in bytes and time',
  (ctx) => {
    let port: number;
    beforeAll(async () => {
      port = await listen(ctx);
    });

    it('a client that sends as fast as it can forever gets its 401 and is cut after the byte bound', async () => {
      const r = await sendForever(port, multipartHead('/api/photo-bg', 'chunked'), chunked(CHUNK));
      expect(r.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(r.sent).toBeGreaterThan(2 * MB);
    });

    it('a client that trickles forever gets its 401 and is cut after the time bound, below the byte bound', async () => {
      const r = await sendForever(port, multipartHead('/api/photo-bg', 106 * MB), Buffer.alloc(1024, 'c'), 10);
      expect(r.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(r.sent).toBeLessThan(2 * MB);
    });
  },
  { lingering: { maxBytes: 2 * MB, timeoutMs: 800 } },
);

/** One chunk of a chunked body. */
const chunked = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
