import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { makeTestDb, type TestDb } from '../helpers/db';

/** Slow clients cannot hold the server (issue 9, item 4): stalled headers or bodies are cut off, moving ones are not. */
let app: FastifyInstance;
let tdb: TestDb;
let port: number;

beforeAll(async () => {
  tdb = await makeTestDb('sqlite');
  const env = {
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'x'.repeat(40),
    APP_KEY: 'k'.repeat(40),
    DATA_DIR: tdb.dataDir,
    WORKERS: 'off',
    BODY_IDLE_TIMEOUT_MS: '400',
    HEADERS_TIMEOUT_MS: '1000',
  };
  app = await buildApp({ config: loadConfig(env as any, { panelDir: '/nonexistent' }), db: tdb.db, dbKind: 'sqlite' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app.close();
  await tdb.drop();
});

/** A raw connection: what it received and a promise of its close. */
function open() {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  return { socket, closed, received: () => received };
}

const head = (length: number) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: kadr.test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('slow clients', () => {
  it('a POST whose body stalls after a part is closed after the body idle timeout, without an answer', async () => {
    const c = open();
    c.socket.write(head(1000) + '{"login":"admin",');
    await c.closed;
    expect(c.received()).toBe('');
  });

  it('headers that never end are cut off by the headers timeout', async () => {
    const c = open();
    c.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: kadr.test\r\n');
    await c.closed;
    expect(c.received()).not.toMatch(/^HTTP\/1\.1 [25]/);
  });

  it('a slow but steadily moving body is read to its end and answered', async () => {
    const body = `{"login":"nobody","password":"wrong-pass"${' '.repeat(400)}}`;
    const c = open();
    c.socket.write(head(Buffer.byteLength(body)));
    // 20 pieces, one every 100 ms: the whole body takes far longer than the 400 ms idle limit, no gap reaches it.
    const pieces = body.match(/[\s\S]{1,22}/g)!;
    for (const piece of pieces) {
      await new Promise<void>((r) => setTimeout(r, 100));
      c.socket.write(piece);
    }
    const answered = new Promise<void>((r) => c.socket.on('data', () => c.received().includes('\r\n\r\n') && r()));
    await Promise.race([answered, c.closed]);
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    c.socket.destroy();
  });
});
