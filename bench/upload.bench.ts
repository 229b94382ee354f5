import { execFileSync } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { insertUser, makeTestDb } from '../tests/helpers/db';

const GB = 1024 ** 3;

/** A 1 GB body made of one real MPEG-TS clip repeated (concatenated MPEG-TS is still a valid stream). */
function repeated(chunk: Buffer, count: number, head: Buffer, tail: Buffer): Readable {
  let i = -1;
  return new Readable({
    read() {
      if (i === -1) this.push(head);
      else if (i < count) this.push(chunk);
      else if (i === count) this.push(tail);
      else this.push(null);
      i++;
    },
  });
}

function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  length: number,
  body: Readable,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path, headers: { ...headers, 'content-length': String(length) } },
      (r) => {
        let text = '';
        r.on('data', (d) => {
          text += d;
        });
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

/**
 * A 1 GB upload through the real endpoint (POST /api/photo-bg, real server listening on a port, in this
 * process): a valid video (an MPEG-TS clip repeated to 1 GB), so the measured path is the whole upload —
 * multipart parsing, streaming to a staging file with fsync, magic bytes, ffprobe, the 0.1 s preview
 * frame, the commit (rename + row). Prints throughput and the process's peak RSS growth (sampled every
 * 50 ms; client and server share the process, the client reuses one buffer). Target: growth ≤ 100 MB.
 * For comparison, two floors: a bare node:http server piping the body into a file, and the disk alone.
 */
export async function uploadBench(): Promise<void> {
  const tdb = await makeTestDb('sqlite');
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: tdb.dataDir, WORKERS: 'off' } as any, {
    panelDir: '/nonexistent',
    port: 0,
  });
  const app = await buildApp({ config, db: tdb.db, dbKind: 'sqlite' });
  try {
    const clipPath = join(tdb.dataDir, 'clip.ts');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=1280x720:r=30:d=2',
      '-f',
      'lavfi',
      '-i',
      'sine=d=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '20M',
      '-c:a',
      'aac',
      '-f',
      'mpegts',
      clipPath,
    ]);
    const clip = readFileSync(clipPath);
    const count = Math.ceil(GB / clip.length);
    const fileBytes = count * clip.length;

    const at = new Date().toISOString();
    await insertUser(tdb.db, 'bench', 'bench-pass');
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'bench', password: 'bench-pass' },
    });
    const authorization = `Bearer ${login.json().accessToken}`;
    const folder = (
      await app.inject({
        method: 'POST',
        url: '/api/folder/photo-bg',
        headers: { authorization },
        payload: { name: 'bench' },
      })
    ).json().id;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;

    const boundary = '----kadrBench';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folder}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="videos[]"; filename="big.ts"\r\nContent-Type: video/mp2t\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const total = head.length + fileBytes + tail.length;

    global.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    let t = performance.now();
    const res = await post(
      port,
      '/api/photo-bg',
      { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` },
      total,
      repeated(clip, count, head, tail),
    );
    const sec = (performance.now() - t) / 1000;
    clearInterval(sampler);
    if (res.status !== 201) throw new Error(`upload → ${res.status} ${res.body.slice(0, 300)}`);
    await app.media.storage.delete(
      decodeURIComponent(JSON.parse(res.body).data[0].url.split('?')[0].replace('/api/media/', '')),
    ); // free the disk now

    // Floors, after the measured upload so they cannot inflate its baseline.
    // Disk floor: the same bytes into a file, no HTTP.
    const floorPath = join(tdb.dataDir, 'floor.bin');
    t = performance.now();
    await pipeline(
      repeated(clip, count, Buffer.alloc(0), Buffer.alloc(0)),
      createWriteStream(floorPath, { flush: true }),
    );
    const floorSec = (performance.now() - t) / 1000;
    rmSync(floorPath);

    // HTTP floor: a bare node:http server piping the request body into a file (no multipart, no checks).
    const bare = createServer(async (req, res) => {
      await pipeline(req, createWriteStream(floorPath, { flush: true }));
      res.end();
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
    t = performance.now();
    await post(
      (bare.address() as { port: number }).port,
      '/',
      {},
      fileBytes,
      repeated(clip, count, Buffer.alloc(0), Buffer.alloc(0)),
    );
    const httpFloorSec = (performance.now() - t) / 1000;
    bare.close();
    rmSync(floorPath);

    const mb = fileBytes / 1024 ** 2;
    const growth = (peak - base) / 1024 ** 2;
    console.log(
      `upload  POST /api/photo-bg, ${(fileBytes / GB).toFixed(2)} GB real video (MPEG-TS): ${sec.toFixed(1)} s, ${(mb / sec).toFixed(0)} MB/s ` +
        `(floors: bare HTTP to file ${(mb / httpFloorSec).toFixed(0)} MB/s, disk only ${(mb / floorSec).toFixed(0)} MB/s); peak RSS growth ${growth.toFixed(1)} MB (target ≤ 100 MB) ${growth <= 100 ? 'OK' : 'OVER'}`,
    );

    // The folder grid with 1,000 items: GET /api/photo-bg/{folderId}?page=N (rows only; signing is included).
    const userId = (
      await tdb.db.selectFrom('users').select('id').where('login', '=', 'bench').executeTakeFirstOrThrow()
    ).id;
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      folderId: folder,
      userId,
      type: 'image' as const,
      storageKey: `backgrounds/${userId}/${folder}/b${i}.jpg`,
      previewKey: `backgrounds/${userId}/${folder}/b${i}.thumb.jpg`,
      originalName: `b${i}.jpg`,
      mime: 'image/jpeg',
      size: 1,
      width: null,
      height: null,
      duration: null,
      createdAt: at,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await tdb.db
        .insertInto('backgroundItems')
        .values(rows.slice(i, i + 100))
        .execute();
    const times: number[] = [];
    for (let n = 0; n < 300; n++) {
      const s = performance.now();
      const r = await app.inject({
        method: 'GET',
        url: `/api/photo-bg/${folder}?page=${1 + (n % 42)}`,
        headers: { authorization },
      });
      times.push(performance.now() - s);
      if (r.statusCode !== 200) throw new Error(`grid → ${r.statusCode}`);
    }
    times.sort((a, b) => a - b);
    console.log(
      `upload  GET /api/photo-bg/{folder}?page=N, 1,000 items, 24 per page: p50 ${times[150]!.toFixed(2)} ms  p99 ${times[297]!.toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    await tdb.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await uploadBench();
