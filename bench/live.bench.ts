import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDb, type DbKind } from '../server/db/index';
import type { RequestLive } from '../src/contract/live';
import { insertUser, makeTestDb, postgresAvailable } from '../tests/helpers/db';
import { openSse } from '../tests/helpers/sse';

const CLIENTS = 50;
const EVENTS = 200;
const EVERY_MS = 25; // 40 events/s, as from 20 renders reporting twice a second

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;

async function listen(app: FastifyInstance) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const a = app.server.address();
  return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

/**
 * Live updates: from a worker's report (a `render.changed` event recorded through the event bus: the events row,
 * NOTIFY on PostgreSQL) to the event
 * arriving on CLIENTS open streams of the same user, EVENTS progress events at 40/s. On PostgreSQL also to a
 * second API process (a second app on the same database, woken by LISTEN/NOTIFY). The browser's last step
 * (event → DOM) is printed by tests/e2e/live.test.ts (10–100 ms there).
 */
export async function liveBench(): Promise<void> {
  for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
    if (kind === 'postgres' && !(await postgresAvailable())) {
      console.log('live [postgres]: no PostgreSQL, skipped');
      continue;
    }
    await one(kind);
  }
}

async function one(kind: DbKind) {
  const tdb = await makeTestDb(kind);
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: 'bench-app-key-0123456789abcdefghijkl',
      DATA_DIR: tdb.dataDir,
      WORKERS: 'off',
    } as any,
    { panelDir: '/nonexistent', databaseUrl: tdb.url },
  );
  const app = await buildApp({ config, db: tdb.db, dbKind: kind });
  const second = kind === 'postgres' ? createDb({ databaseUrl: tdb.url, sqliteFile: '' }) : undefined;
  const app2 = second ? await buildApp({ config, db: second.db, dbKind: kind }) : undefined;
  const streams: Array<ReturnType<typeof openSse>> = [];
  try {
    const userId = await insertUser(tdb.db, 'op', 'op-pass');
    const base = await listen(app);
    const base2 = app2 ? await listen(app2) : undefined;
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'op', password: 'op-pass' },
    });
    const authorization = `Bearer ${login.json().accessToken}`;
    const ticket = async () =>
      (await app.inject({ method: 'POST', url: '/api/live/ticket', headers: { authorization } })).json()
        .ticket as string;
    for (let i = 0; i < CLIENTS; i++) streams.push(openSse(`${base}/api/live/events?ticket=${await ticket()}`));
    const remote = base2 ? openSse(`${base2}/api/live/events?ticket=${await ticket()}`) : undefined;
    if (remote) streams.push(remote);
    await Promise.all(streams.map((s) => s.opened));
    while (app.root.live.hub.size < CLIENTS || (app2 && app2.root.live.hub.size < 1))
      await new Promise((r) => setTimeout(r, 20));

    const sentAt: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      sentAt[i] = performance.now();
      // The request's `done` carries the sequence number (a stream shows only the contract's fields).
      const payload = { id: 1, done: i, progress: i % 100 } as RequestLive;
      await app.root.events.transaction((trx) =>
        app.root.events.record(trx, { name: 'render.changed', userId, payload }),
      );
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
    const deadline = performance.now() + 10_000;
    while (streams.some((s) => s.messages.length < EVENTS) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const lat = (s: ReturnType<typeof openSse>) => s.messages.map((m) => m.at - sentAt[m.payload.done]!);
    const local = streams.filter((s) => s !== remote).flatMap(lat);
    const received = streams.filter((s) => s !== remote).reduce((n, s) => n + s.messages.length, 0);
    console.log(
      `live [${kind}]: report → ${CLIENTS} streams of one process: ${received}/${CLIENTS * EVENTS} received, ${fmt(local)}`,
    );
    if (remote)
      console.log(
        `live [${kind}]: report → a second API process (LISTEN/NOTIFY): ${remote.messages.length}/${EVENTS} received, ${fmt(lat(remote))}`,
      );
  } finally {
    streams.forEach((s) => s.close());
    await app2?.close();
    await second?.db.destroy();
    await app.close();
    await tdb.drop();
  }
}
