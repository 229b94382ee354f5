import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDb, migrateToLatest } from '../../server/db/index';
import { hashPassword } from '../../server/auth/password';
import { startSimulators, type Simulators } from '../../sim/platforms/index';
import type { TestCtx } from '../helpers/app';
import { sha256 } from '../helpers/media-fixtures';
import { startThrottledProxy, type ThrottledProxy } from '../helpers/throttled-proxy';
import { connectedProfile, makePublishClip, schedule } from '../api/publish.fixtures';

/**
 * Crash safety of the publish worker: the real server (`npx tsx server/main.ts`, WORKERS=on) publishes one video to
 * YouTube and TikTok against simulators that live in this test process, through a profile proxy slowed to a few
 * MB/s. Once both platforms have acknowledged some bytes but not all, the worker's whole process group is
 * SIGKILLed (as a container kill would), then started again on the same data. Each upload must finish from the
 * platform's last acknowledged byte (no byte below it sent again), the file the platform holds must be the file,
 * and each platform must have exactly one post.
 */
const APP_KEY = 'crash-test-app-key-0123456789abcdef';
const JWT_SECRET = 'j'.repeat(40);
const RATE = 3 * 1024 * 1024; // bytes per second per tunnel: a 24 MB file takes ~8 s per platform
const MIB = 1024 * 1024;

describe('publish crash safety (real worker process, SIGKILL mid-upload)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kadr-publish-crash-'));
  let sims: Simulators;
  let proxy: ThrottledProxy;
  let clip: Awaited<ReturnType<typeof makePublishClip>>;
  let child: ChildProcess | undefined;
  let log = '';

  beforeAll(async () => {
    sims = await startSimulators();
    sims.google.processingMs = 0;
    Object.assign(sims.tiktok.publishSettings, { processingPolls: 0, postIdPolls: 0 });
    proxy = await startThrottledProxy(RATE);
    // Over two of TikTok's 10 MiB chunks, so a kill can land between them.
    clip = await makePublishClip({ durationSec: 12, lossless: true });
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) killGroup('SIGKILL');
    await proxy?.close();
    await sims?.close();
    await clip?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const killGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child!.pid!, sig);
    } catch {
      /* gone */
    }
  };
  const exited = () =>
    new Promise<void>((r) =>
      child!.exitCode !== null || child!.signalCode !== null ? r() : child!.once('exit', () => r()),
    );

  /** The worker process on the same data, pointed at this process's simulators; resolves once it listens. */
  const start = () =>
    new Promise<void>((resolve, reject) => {
      log = '';
      child = spawn('npx', ['tsx', 'server/main.ts'], {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...sims.env,
          ALLOW_PRIVATE_PROXIES: 'true', // the throttled proxy listens on 127.0.0.1
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          WORKERS: 'on',
          LOG_LEVEL: 'info',
          APP_KEY,
          JWT_SECRET,
          JOB_LEASE_SEC: '5',
          JOB_POLL_MS: '200',
          DATABASE_URL: '',
        },
      });
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
      const onData = (d: Buffer) => {
        log += d;
        if (/Server listening at http:\/\/127\.0\.0\.1:\d+/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, sig) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code ?? sig}) before listening:\n${log}`));
      });
    });

  /** Polls `probe` (every 50 ms, no fixed sleep as synchronisation) until it returns a value. */
  async function until<T>(what: string, probe: () => T | undefined, maxMs = 90_000): Promise<T> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A user, a profile connected to YouTube and TikTok through the slow proxy, and the video scheduled now. */
  async function prepare() {
    const config = loadConfig(
      { LOG_LEVEL: 'silent', JWT_SECRET, APP_KEY, DATA_DIR: dataDir, WORKERS: 'off' } as never,
      { panelDir: '/nonexistent', platforms: sims.config, allowPrivateProxies: true },
    );
    const { db } = createDb(config);
    await migrateToLatest(db);
    const app = await buildApp({ config, db, dbKind: 'sqlite' });
    const call: TestCtx['call'] = async ({ token, ...opts }) => {
      const res = await app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ?? {}) } });
      let body: unknown = res.body;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body, headers: res.headers };
    };
    const ctx = { app, root: app.root, call, tdb: { db, kind: 'sqlite', dataDir } } as unknown as TestCtx;
    const at = new Date().toISOString();
    const user = await db
      .insertInto('users')
      .values({
        login: 'crash',
        passwordHash: await hashPassword('crash-pass'),
        role: 'user',
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const login = await call({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'crash', password: 'crash-pass' },
    });
    const token = { authorization: `Bearer ${login.body.accessToken}` };
    const accountId = await connectedProfile(ctx, token, proxy.url);
    const scheduled = await schedule(ctx, {
      userId: user.id,
      accountId,
      clip: clip.file,
      platforms: ['youtube', 'tiktok'],
    });
    await app.close();
    await db.destroy();
    return scheduled;
  }

  const rowsOf = (ids: number[]) => {
    const db = new Database(join(dataDir, 'kadr.sqlite'), { readonly: true });
    try {
      const q = `SELECT id, platform, state, error, bytes_sent, bytes_total FROM video_publishes WHERE id IN (${ids.join(',')})`;
      return db.prepare(q).all() as Array<{
        platform: string;
        state: string;
        error: string | null;
        bytes_sent: number;
      }>;
    } finally {
      db.close();
    }
  };

  it('finishes each upload from the last acknowledged byte after a restart and posts exactly once', async () => {
    const { rows } = await prepare();
    const ids = Object.values(rows);
    const size = (await import('node:fs')).statSync(clip.file).size;
    expect(size).toBeGreaterThan(20 * MIB);

    await start();
    const youtube = () => [...sims.google.uploadSessions.values()];
    const tiktok = () => sims.tiktok.uploads();
    // Both platforms hold part of the file: YouTube some bytes, TikTok at least its first chunk, neither all.
    await until('a partly acknowledged upload on both platforms', () => {
      const y = youtube()[0];
      const t = tiktok()[0];
      const ok = y && y.acknowledged > 0 && y.acknowledged < size && t && t.received > 0 && t.received < size;
      return ok ? true : undefined;
    });
    killGroup('SIGKILL');
    await exited();
    const yAtKill = youtube()[0]!.acknowledged;
    const tAtKill = tiktok()[0]!.received;
    expect(sims.google.posts()).toBe(0);
    expect(sims.tiktok.posts()).toHaveLength(0);

    await start();
    const done = await until('both rows settled', () => {
      const r = rowsOf(ids);
      return r.every((x) => ['published', 'failed'].includes(x.state)) ? r : undefined;
    });
    killGroup('SIGTERM');
    await exited();

    expect(done.map((r) => [r.platform, r.state, r.error]).sort()).toEqual([
      ['tiktok', 'published', null],
      ['youtube', 'published', null],
    ]);
    const hash = await sha256(clip.file);
    // YouTube: one session, resumed where it stood; no chunk began below what was already persisted.
    expect(youtube()).toHaveLength(1);
    const session = youtube()[0]!;
    expect(session.acknowledged).toBe(size);
    expect(session.chunks.every((c) => c.start === c.acknowledgedBefore)).toBe(true);
    expect(yAtKill).toBeGreaterThan(0);
    expect(session.chunks.some((c) => c.start >= yAtKill)).toBe(true);
    expect(sims.google.posts()).toBe(1);
    expect(sims.google.videos.find((v) => v.id === session.videoId)!.sha256).toBe(hash);
    // TikTok: one upload, resumed from the first chunk it had not kept; no kept chunk sent again.
    expect(tiktok()).toHaveLength(1);
    const up = tiktok()[0]!;
    expect(up.chunks.some((c) => c.outcome === 'held-already')).toBe(false);
    expect(up.chunks.filter((c) => c.outcome === 'kept').map((c) => c.start)).toEqual(
      [...new Set(up.chunks.map((c) => c.start))].sort((a, b) => a - b),
    );
    expect(up.chunks.some((c) => c.start === tAtKill && tAtKill > 0)).toBe(true);
    expect(sims.tiktok.posts()).toHaveLength(1);
    expect(sims.tiktok.posts()[0]!.sha256).toBe(hash);
  }, 240_000);
});
