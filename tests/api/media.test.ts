import { execFileSync } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describeEachDb } from '../helpers/app';
import { parseRange } from '../../server/media/media.routes';

describe('Range header parsing', () => {
  it('answers single ranges, suffixes, open ends; ignores junk; refuses past the end', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  });
});

describeEachDb('media storage and signed links', (ctx) => {
  const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
  const key = 'tests/sample/range.mp4';

  beforeAll(async () => {
    await ctx.app.media.storage.put(key, Readable.from([bytes.subarray(0, 4000), bytes.subarray(4000)]));
  });

  it('stores atomically: stage is invisible until commit; discard and stream errors leave nothing', async () => {
    const { storage } = ctx.app.media;
    const staged = await storage.stage(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(staged.size).toBe(11);
    expect(staged.head.toString()).toBe('hello world');
    expect(await storage.stat('tests/a.txt')).toBeNull();
    await staged.commit('tests/a.txt');
    expect((await storage.stat('tests/a.txt'))?.size).toBe(11);
    expect(existsSync(staged.path)).toBe(false);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.stage(failing)).rejects.toThrow('client went away');
    expect(readdirSync(join(ctx.tdb.dataDir, 'media', '.staging'))).toEqual([]);
    await expect(storage.put('../escape.txt', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /invalid storage key/,
    );
    await storage.delete('tests/a.txt');
    await storage.delete('tests/a.txt'); // missing is fine
    expect(await storage.stat('tests/a.txt')).toBeNull();
  });

  it('serves a signed link whole (200) and by range (206) with Accept-Ranges and Content-Range', async () => {
    const url = ctx.app.media.signer.url(key);
    let r = await ctx.app.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(200);
    expect(r.headers['accept-ranges']).toBe('bytes');
    expect(r.headers['content-type']).toBe('video/mp4');
    expect(r.rawPayload.equals(bytes)).toBe(true);

    r = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(r.statusCode).toBe(206);
    expect(r.headers['content-range']).toBe('bytes 100-199/10000');
    expect(r.headers['content-length']).toBe('100');
    expect(r.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    r = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=-500' } });
    expect(r.statusCode).toBe(206);
    expect(r.headers['content-range']).toBe('bytes 9500-9999/10000');
    expect(r.rawPayload.equals(bytes.subarray(9500))).toBe(true);

    r = await ctx.app.inject({ method: 'GET', url, headers: { range: 'bytes=20000-' } });
    expect(r.statusCode).toBe(416);
    expect(r.headers['content-range']).toBe('bytes */10000');

    r = await ctx.app.inject({ method: 'HEAD', url });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-length']).toBe('10000');
  });

  it('a tampered, foreign or expired link is a 403', async () => {
    const url = ctx.app.media.signer.url(key);
    const [path, query] = url.split('?');
    const q = new URLSearchParams(query);
    const tampered = [
      `${path}?exp=${q.get('exp')}&sig=${q.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${path}?exp=${Number(q.get('exp')) + 3600}&sig=${q.get('sig')}`,
      `${path.replace('range.mp4', 'other.mp4')}?${query}`,
      `${path}?exp=${q.get('exp')}`,
      path,
    ];
    for (const u of tampered) {
      const r = await ctx.call({ method: 'GET', url: u });
      expect(r.status, u).toBe(403);
      expect(r.body).toEqual({ message: 'Недостатньо прав', statusCode: 403 });
    }
    const expired = ctx.app.media.signer.url(key, Date.now() - 30 * 24 * 3600_000);
    expect((await ctx.call({ method: 'GET', url: expired })).status).toBe(403);
    // A valid link to a missing object.
    expect((await ctx.call({ method: 'GET', url: ctx.app.media.signer.url('tests/none.mp4') })).status).toBe(404);
  });

  it('an upload interrupted mid-stream leaves no file and no row', async () => {
    await ctx.createUser('upl', 'upl-pass');
    const token = await ctx.login('upl', 'upl-pass');
    const folder = (
      await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: token.headers, payload: { name: 'F' } })
    ).body.id;
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (ctx.app.server.address() as { port: number }).port;
    const staging = join(ctx.tdb.dataDir, 'media', '.staging');
    const boundary = '----kadrAbort';
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/photo-bg',
      headers: {
        authorization: token.headers.authorization,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(50 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folder}\r\n`);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="videos[]"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    for (let i = 0; i < 8; i++) req.write(Buffer.alloc(256 * 1024, i));
    // Wait until the server is writing the staging file, then drop the connection.
    await vi.waitFor(() => expect(existsSync(staging) && readdirSync(staging).length).toBe(1), {
      timeout: 5000,
      interval: 20,
    });
    req.destroy();
    await vi.waitFor(() => expect(readdirSync(staging)).toEqual([]), { timeout: 5000, interval: 20 });
    expect(existsSync(join(ctx.tdb.dataDir, 'media', 'backgrounds'))).toBe(false);
    const rows = await ctx.tdb.db.selectFrom('backgroundItems').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('a folder deleted while its upload arrives: 404, nothing stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kadr-media-fx-'));
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x120:r=25:d=1',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      join(dir, 'v.mp4'),
    ]);
    const mp4 = readFileSync(join(dir, 'v.mp4'));
    rmSync(dir, { recursive: true, force: true });
    await ctx.createUser('upl2', 'upl2-pass');
    const token = await ctx.login('upl2', 'upl2-pass');
    const folder = (
      await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: token.headers, payload: { name: 'G' } })
    ).body.id;
    if (!ctx.app.server.listening) await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (ctx.app.server.address() as { port: number }).port;
    const boundary = '----kadrGone';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folder}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="videos[]"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const staging = join(ctx.tdb.dataDir, 'media', '.staging');
    let req!: ClientRequest;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/photo-bg',
          headers: {
            authorization: token.headers.authorization,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + mp4.length + tail.length),
          },
        },
        (r) => {
          let b = '';
          r.on('data', (d) => {
            b += d;
          });
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: b }));
        },
      );
      req.on('error', reject);
    });
    // Awaited below; should a step before that fail, the dropped connection must not be an unhandled rejection.
    answer.catch(() => {});
    onTestFinished(() => {
      req.destroy();
    });
    req.write(head);
    req.write(mp4.subarray(0, 1000));
    // The server has checked the folder and is writing the file once its staging file exists: delete the folder then.
    await vi.waitFor(() => expect(existsSync(staging) && readdirSync(staging).length).toBe(1), {
      timeout: 5000,
      interval: 20,
    });
    expect(
      (await ctx.call({ method: 'DELETE', url: `/api/folder/photo-bg/${folder}`, token: token.headers })).status,
    ).toBe(200);
    req.end(Buffer.concat([mp4.subarray(1000), tail]));
    const r = await answer;
    expect(r.status).toBe(404);
    expect(await ctx.tdb.db.selectFrom('backgroundItems').selectAll().execute()).toEqual([]);
    expect(readdirSync(join(ctx.tdb.dataDir, 'media', '.staging'))).toEqual([]);
    expect(existsSync(join(ctx.tdb.dataDir, 'media', 'backgrounds'))).toBe(false);
  });
});
