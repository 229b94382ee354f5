import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createPlatformHttp } from '../server/platforms/http';
import type { PublishSource } from '../server/platforms/publish-types';
import { startGoogleSimulator, type GoogleSimulator } from '../sim/platforms/google';
import { YouTubeDriver } from '../server/platforms/youtube/youtube.driver';
import { YouTubePublisher } from '../server/platforms/youtube/youtube.publisher';

const MB = 1024 ** 2;
const SIZE = 500 * MB;
const ROUNDS = 3;

/** The same 500 MB every time, generated from one 1 MiB pattern: nothing the size of the file is ever held. */
const pattern = Buffer.alloc(MB);
for (let i = 0; i < pattern.length; i++) pattern[i] = (i * 31 + (i >> 10)) & 0xff;

function bytes(start: number, end: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = start; at < end;) {
        const from = at % MB;
        const piece = pattern.subarray(from, Math.min(MB, from + (end - at)));
        at += piece.length;
        yield piece;
      }
    })(),
    { objectMode: false },
  );
}

const source: PublishSource = { size: SIZE, contentType: 'video/mp4', open: bytes };

/** The floor: one PUT of the same bytes over loopback to a node:http server that only drains them. */
async function rawPut(): Promise<number> {
  const sink = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const { port } = sink.address() as AddressInfo;
  try {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'PUT', path: '/', headers: { 'content-length': String(SIZE) } },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`sink → ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      bytes(0, SIZE).pipe(req);
    });
    return (performance.now() - t) / 1000;
  } finally {
    sink.close();
  }
}

/** Best time of `rounds` uploads of the 500 MB source through the publisher to `sim`, in seconds. */
async function viaPublisher(sim: GoogleSimulator, rounds: number, between?: () => Promise<void>): Promise<number> {
  const client = { clientId: 'bench.apps.googleusercontent.com', clientSecret: 'bench-secret' };
  sim.registerClient(client.clientId, client.clientSecret);
  const http = createPlatformHttp({ timeoutMs: 60_000, platform: 'youtube' });
  try {
    const baseUrls = { auth: sim.url, token: sim.url, api: sim.url };
    const driver = new YouTubeDriver({ http, credentials: client, redirectUri: 'http://127.0.0.1/callback', baseUrls });
    const consent = await fetch(driver.authorizationUrl({ state: 'bench' }), { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const { accessToken } = await driver.exchangeCode({ code });
    const publisher = new YouTubePublisher({ http, baseUrls });
    let best = Infinity;
    for (let round = 0; round < rounds; round++) {
      await between?.();
      const meta = { title: `bench ${round}`, description: '', tags: [] };
      const uri = await publisher.startUpload(accessToken, meta, SIZE, { privacyStatus: 'private' });
      const t = performance.now();
      const { videoId } = await publisher.upload(accessToken, uri, source);
      best = Math.min(best, (performance.now() - t) / 1000);
      const video = sim.videos.find((v) => v.id === videoId);
      if (!video || video.size !== SIZE) throw new Error('the simulator did not receive the whole file');
    }
    return best;
  } finally {
    await http.close();
  }
}

/**
 * A 500 MB upload through the YouTube publisher (resumable session, its defaults: 8 MiB chunks doubling to
 * 64 MiB while fast, each answered 308 with its
 * Range, the last 201) to the Google simulator on loopback, next to the floor: the same bytes in one raw PUT to
 * a plain node:http sink. Rounds alternate (best of 3 each). The simulator counts the bytes but does not hash
 * them for the ratio, since the floor's sink hashes nothing either and both share this one process; one more
 * upload with the simulator's SHA-256 on is printed for reference. Prints MB/s, the ratio (target ≥ 0.8) and
 * the process's peak RSS (sampled every 50 ms: client and simulator together; the file is never held whole).
 */
export async function publishBench(): Promise<void> {
  const plain = await startGoogleSimulator({ hashUploads: false });
  const hashing = await startGoogleSimulator();
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    let floor = Infinity;
    const best = await viaPublisher(plain, ROUNDS, async () => void (floor = Math.min(floor, await rawPut())));
    const hashed = await viaPublisher(hashing, 1);
    clearInterval(sampler);
    const rate = (sec: number) => SIZE / MB / sec;
    const ratio = rate(best) / rate(floor);
    console.log(
      `publish  YouTube resumable upload, 500 MB in chunks of 8 MiB growing to 64 MiB, to the simulator: ` +
        `${best.toFixed(2)} s, ${rate(best).toFixed(0)} MB/s; ` +
        `raw loopback PUT (floor) ${rate(floor).toFixed(0)} MB/s; ` +
        `ratio ${ratio.toFixed(2)} (target ≥ 0.8) ${ratio >= 0.8 ? 'OK' : 'UNDER'}`,
    );
    console.log(
      `publish  with the simulator hashing every byte (SHA-256, same process): ${rate(hashed).toFixed(0)} MB/s; ` +
        `peak RSS ${(peak / MB).toFixed(0)} MB (+${((peak - base) / MB).toFixed(1)} MB over the start)`,
    );
  } finally {
    clearInterval(sampler);
    await plain.close();
    await hashing.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await publishBench();
