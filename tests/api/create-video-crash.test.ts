import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeFixtures } from './create-video.fixtures';
import { filesUnder } from '../helpers/files-under';
import { multipart } from '../helpers/multipart';

/**
 * Crash safety of the render worker: the real server as a child process (`npx tsx server/main.ts`,
 * WORKERS=on) is SIGKILLed (its whole process group, ffmpeg included, as a container kill would) in the
 * middle of a render, then started again on the same data. The request must end success with exactly
 * countVideo outputs, no duplicate rows, and no file in the media folder that no row accounts for.
 */
const fx = makeFixtures();
const COUNT = 6; // outputs render 4 per ffmpeg process: the kill lands while the second group renders

describe('create-video crash safety (real server process, SIGKILL mid-render)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kadr-crash-'));
  let port: number;
  let child: ChildProcess | undefined;
  let log = '';
  const base = () => `http://127.0.0.1:${port}`;

  /**
   * Starts the server on a port the kernel picks (PORT=0, never a port freed earlier and reused) and learns it
   * from fastify's "Server listening at" line, written once the app is ready.
   */
  const start = () =>
    new Promise<void>((resolve, reject) => {
      log = '';
      child = spawn('npx', ['tsx', 'server/main.ts'], {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          WORKERS: 'on',
          LOG_LEVEL: 'info',
          ADMIN_LOGIN: 'admin',
          ADMIN_PASSWORD: 'admin-pass',
          RENDER_CONCURRENCY: '1',
          JOB_LEASE_SEC: '5',
          JOB_POLL_MS: '200',
          DATABASE_URL: '',
        },
      });
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000);
      const onData = (d: Buffer) => {
        log += d;
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
        if (m) {
          clearTimeout(timer);
          port = Number(m[1]);
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
  const killGroup = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child!.pid!, sig);
    } catch {
      /* gone */
    }
  };

  afterAll(async () => {
    if (child && child.exitCode === null) killGroup('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request after a restart with exactly countVideo outputs and no orphan files', async () => {
    await start();
    const login = await (
      await fetch(`${base()}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'admin-pass' }),
      })
    ).json();
    const auth = { authorization: `Bearer ${login.accessToken}` };
    const folder = await (
      await fetch(`${base()}/api/folder/photo-bg`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Any' }),
      })
    ).json();
    const m = multipart([
      { name: 'countVideo', value: String(COUNT) },
      { name: 'isVideo', value: 'false' },
      { name: 'isPhoto', value: 'false' },
      { name: 'isGenerator', value: 'true' },
      { name: 'folders[]', value: String(folder.id) },
      { name: 'file', filename: 'clip.mp4', type: 'video/mp4', data: fx.clip },
    ]);
    const created = await fetch(`${base()}/api/create-video/create`, {
      method: 'POST',
      headers: { ...auth, ...m.headers },
      body: m.payload,
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const get = async () => (await fetch(`${base()}/api/create-video/request/${id}`, { headers: auth })).json();

    // Wait until at least one output is recorded and the render is still going, then kill everything.
    let seen: any;
    for (let i = 0; i < 600; i++) {
      seen = await get();
      if (seen.status === 'loading' && seen.done >= 1 && seen.progress > 0 && seen.progress < 100) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toMatchObject({ status: 'loading' });
    expect(seen.progress).toBeGreaterThan(0);
    expect(seen.progress).toBeLessThan(100);
    killGroup('SIGKILL');
    await new Promise<void>((r) =>
      child!.exitCode !== null || child!.signalCode !== null ? r() : child!.once('exit', () => r()),
    );

    await start();
    let final: any;
    for (let i = 0; i < 600; i++) {
      final = await get();
      if (final.status === 'success' || final.status === 'error') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(final).toMatchObject({ status: 'success', progress: 100, done: COUNT, error: null });
    expect(final.video.map((v: any) => v.index)).toEqual([0, 1, 2, 3, 4, 5]);

    killGroup('SIGTERM');
    await new Promise<void>((r) =>
      child!.exitCode !== null || child!.signalCode !== null ? r() : child!.once('exit', () => r()),
    );
    const db = new Database(join(dataDir, 'kadr.sqlite'), { readonly: true });
    const rows = db
      .prepare('SELECT output_index, storage_key FROM videos WHERE request_id = ? ORDER BY output_index')
      .all(id) as Array<{ output_index: number; storage_key: string }>;
    const req = db.prepare('SELECT clip_key FROM create_video_requests WHERE id = ?').get(id) as { clip_key: string };
    const jobs = db.prepare("SELECT status, attempts FROM jobs WHERE name = 'video.render'").all() as Array<{
      status: string;
      attempts: number;
    }>;
    db.close();
    expect(rows.map((r) => r.output_index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(rows.map((r) => r.storage_key)).size).toBe(COUNT);
    expect(jobs).toEqual([{ status: 'done', attempts: 2 }]);
    // The media folder holds the clip and exactly the recorded outputs: nothing half-written, nothing stray.
    const media = filesUnder(join(dataDir, 'media')); // staging included
    expect(media.sort()).toEqual([req.clip_key, ...rows.map((r) => r.storage_key)].sort());
    expect(filesUnder(join(dataDir, 'work'))).toEqual([]);
    expect(existsSync(join(dataDir, 'kadr.sqlite'))).toBe(true);
  }, 120_000);
});
