/**
 * Instagram publishing against the simulator: the simulator really fetches the video from a tiny local server that
 * answers Range requests (standing for Kadr's signed media link), through the profile's proxy for every Graph call.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createPlatformHttp, type PlatformHttp } from '../../server/platforms/http';
import { InstagramDriver } from '../../server/platforms/instagram/instagram.driver';
import {
  INSTAGRAM_CONTAINER_POLL,
  InstagramPublisher,
  buildInstagramCaption,
  checkInstagramFile,
  isOutcomeUnknown,
  processingTimeout,
} from '../../server/platforms/instagram/instagram.publisher';
import type { MediaFacts, PublishSource } from '../../server/platforms/publish-types';
import { startInstagramSimulator, type InstagramSimulator } from '../../sim/platforms/instagram';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import { REDIRECT_URI, expectPlatformError, openConsent } from './helpers';

const DAY = 24 * 3600_000;

/** A PublishSource over a generated buffer that starts like an MP4 (an `ftyp` box). */
function mp4Source(size: number, seed = 1): { source: PublishSource; sha256: string } {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buf[i] = (i * 31 + seed * 7) & 0xff;
  buf.write('\x00\x00\x00\x18ftypisom', 0, 'latin1');
  const source: PublishSource = {
    size,
    contentType: 'video/mp4',
    open: (start, end) => Readable.from([buf.subarray(start, end)]),
  };
  return { source, sha256: createHash('sha256').update(buf).digest('hex') };
}

interface MediaServer {
  url: string;
  /** Range headers received, in order. */
  ranges: string[];
  /** The next response is cut after this many bytes (the connection drops). */
  cutNextAfter: number | null;
  /** Every response is cut (the link keeps failing). */
  cutAlways: boolean;
  close(): Promise<void>;
}

/** Kadr's signed media link in miniature: one file, 206 answers to Range, streamed from the PublishSource. */
async function startMediaServer(source: PublishSource): Promise<MediaServer> {
  const state: MediaServer = { url: '', ranges: [], cutNextAfter: null, cutAlways: false, close: async () => {} };
  const server = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    state.ranges.push(String(req.headers.range ?? ''));
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] ? Math.min(Number(m[2]), source.size - 1) : source.size - 1;
    if (start >= source.size) return void res.writeHead(416, { 'content-range': `bytes */${source.size}` }).end();
    res.writeHead(m ? 206 : 200, {
      'accept-ranges': 'bytes',
      'content-type': source.contentType,
      'content-length': String(end - start + 1),
      ...(m ? { 'content-range': `bytes ${start}-${end}/${source.size}` } : {}),
    });
    const cut = state.cutAlways ? 1000 : state.cutNextAfter;
    state.cutNextAfter = null;
    if (cut === null) return void source.open(start, end + 1).pipe(res);
    const upTo = Math.min(end + 1, start + cut);
    source
      .open(start, upTo)
      .on('data', (c: Buffer) => res.write(c))
      .on('end', () => res.write('', () => res.destroy()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/media/videos/1/0.mp4?exp=1&sig=abc`;
  state.close = () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections()));
  return state;
}

let sim: InstagramSimulator;
let proxy: LocalProxy;
const https: PlatformHttp[] = [];
const file = mp4Source(300_000);
let media: MediaServer;

function clients(opts: { s?: InstagramSimulator; publishTimeoutMs?: number } = {}) {
  const s = opts.s ?? sim;
  const httpClient = createPlatformHttp({
    proxy: proxy.url,
    ipVersion: 'ipv4',
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    platform: 'instagram',
    allowPrivateProxy: true, // the local proxy listens on 127.0.0.1
  });
  https.push(httpClient);
  const baseUrls = { auth: s.url, api: s.url, graph: s.url };
  const credentials = { clientId: s.appId, clientSecret: s.appSecret };
  const driver = new InstagramDriver({ http: httpClient, credentials, redirectUri: REDIRECT_URI, baseUrls });
  const publisher = new InstagramPublisher({ http: httpClient, baseUrls, publishTimeoutMs: opts.publishTimeoutMs });
  return { driver, publisher };
}

/** Connects a profile and returns its long-lived token and professional account id. */
async function connect(opts: { s?: InstagramSimulator; publishTimeoutMs?: number } = {}) {
  const { driver, publisher } = clients(opts);
  const { query } = await openConsent(driver.authorizationUrl({ state: 'st' }));
  const tokens = await driver.exchangeCode({ code: driver.parseCallback(query).code });
  return { publisher, token: tokens.accessToken, igId: tokens.platformUserId };
}

/** Waits (deterministically: the simulator's fetch settles) and polls until the container leaves IN_PROGRESS. */
async function pollUntilDone(publisher: InstagramPublisher, token: string, containerId: string, s = sim) {
  await s.containers().find((c) => c.id === containerId)!.fetched;
  for (let i = 0; i < s.publishing.finishAfterPolls + 1; i++) {
    const status = await publisher.containerStatus(token, containerId);
    if (status.code !== 'IN_PROGRESS') return status;
  }
  throw new Error('container still IN_PROGRESS after the configured polls');
}

const caption = (n: string) =>
  buildInstagramCaption({ title: `Reel ${n}`, description: 'Made with Kadr', tags: ['kadr', 'short video'] });

beforeAll(async () => {
  sim = await startInstagramSimulator();
  sim.publishing.fetchChunkBytes = 64 * 1024;
  proxy = await startLocalProxy();
  media = await startMediaServer(file.source);
});
afterAll(async () => {
  await Promise.all(https.map((h) => h.close()));
  await Promise.all([proxy.close(), sim.close(), media.close()]);
});
beforeEach(() => {
  media.cutAlways = false;
  media.cutNextAfter = null;
  sim.publishing.unsupportedFormat = false;
});

describe('Instagram publisher', () => {
  it('publishes a Reel once through the proxy: limit, container, fetch by Range, status, media_publish, permalink', async () => {
    const { publisher, token, igId } = await connect();
    proxy.reset();
    const before = sim.posts().length;
    expect(await publisher.ensurePublishingSlot(token, igId)).toEqual({ used: before, total: 100, windowSec: 86_400 });
    const text = caption('happy');
    media.ranges.length = 0;
    const { containerId } = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: text });
    const container = sim.containers().find((c) => c.id === containerId)!;
    await container.fetched;
    // The simulator fetched the link whole, in Range requests, each byte once.
    expect(container.record!.sha256).toBe(file.sha256);
    expect(container.record!.bytes).toBe(file.source.size);
    expect(media.ranges[0]).toBe('bytes=0-65535');
    expect(media.ranges.length).toBe(Math.ceil(file.source.size / 65536));
    expect((await publisher.containerStatus(token, containerId)).code).toBe('IN_PROGRESS');
    expect((await pollUntilDone(publisher, token, containerId)).code).toBe('FINISHED');

    const { mediaId } = await publisher.publish(token, igId, containerId);
    expect(sim.posts().length).toBe(before + 1);
    expect(sim.posts().at(-1)).toMatchObject({ id: mediaId, caption: text, containerId });
    expect((await publisher.containerStatus(token, containerId)).code).toBe('PUBLISHED');
    const m = await publisher.media(token, mediaId);
    expect(m).toMatchObject({
      id: mediaId,
      permalink: sim.posts().at(-1)!.permalink,
      shortcode: sim.posts().at(-1)!.shortcode,
    });
    expect(m.timestamp.getTime()).toBe(Math.floor(sim.posts().at(-1)!.publishedAt / 1000) * 1000);
    expect((await publisher.publishingLimit(token, igId)).used).toBe(before + 1);

    const simHost = new URL(sim.url).host;
    expect(proxy.records.length).toBeGreaterThanOrEqual(6);
    expect(proxy.records.filter((r) => r.target !== simHost || !r.allowed)).toEqual([]);
    expect(sim.log.some((l) => l.path.endsWith('/media_publish') && l.query.creation_id === containerId)).toBe(true);
  });

  it('a fetch cut mid-way resumes from the first byte not received; each byte arrives once and the hash matches', async () => {
    const { publisher, token, igId } = await connect();
    media.ranges.length = 0;
    media.cutNextAfter = 20_000;
    const { containerId } = await publisher.createContainer(token, igId, {
      videoUrl: media.url,
      caption: caption('resume'),
    });
    const container = sim.containers().find((c) => c.id === containerId)!;
    await container.fetched;
    const record = container.record!;
    const firstEnd = record.ranges[0]![1];
    expect(firstEnd).toBeLessThan(65_536);
    expect(media.ranges[1]).toBe(`bytes=${firstEnd}-${firstEnd + 65_535}`);
    let next = 0;
    for (const [start, end] of record.ranges) {
      expect(start).toBe(next); // no gap, no byte twice
      next = end;
    }
    expect(next).toBe(file.source.size);
    expect(record.sha256).toBe(file.sha256);
    expect((await pollUntilDone(publisher, token, containerId)).code).toBe('FINISHED');
  });

  it('a link that keeps failing ends the container in ERROR 2207052 with a readable reason; nothing is posted', async () => {
    const { publisher, token, igId } = await connect();
    const before = sim.posts().length;
    media.cutAlways = true;
    const { containerId } = await publisher.createContainer(token, igId, {
      videoUrl: media.url,
      caption: caption('broken'),
    });
    const status = await pollUntilDone(publisher, token, containerId);
    expect(status.code).toBe('ERROR');
    if (status.code !== 'ERROR') return;
    expect(status.status).toContain('2207052');
    expect(status.error).toMatchObject({ kind: 'retry-later', key: 'instagram_fetch_failed', code: '2207052' });
    const refused = await expectPlatformError(publisher.publish(token, igId, containerId), 'retry-later');
    expect(refused).toMatchObject({ key: 'instagram_not_ready', code: '9007/2207027' });
    expect(
      await publisher.reconcile(token, igId, { containerId, caption: caption('broken'), since: new Date() }),
    ).toMatchObject({
      state: 'failed',
      error: { key: 'instagram_fetch_failed' },
    });
    expect(sim.posts().length).toBe(before);
  });

  it('an unsupported format ends in ERROR 2207026 (bad request), also for bytes that are not an MP4', async () => {
    const { publisher, token, igId } = await connect();
    sim.publishing.unsupportedFormat = true;
    const a = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: caption('format') });
    const status = await pollUntilDone(publisher, token, a.containerId);
    expect(status).toMatchObject({
      code: 'ERROR',
      error: { kind: 'bad-request', key: 'instagram_unsupported_format' },
    });

    sim.publishing.unsupportedFormat = false;
    const notMp4 = await startMediaServer({
      size: 5000,
      contentType: 'video/mp4',
      open: (s, e) => Readable.from([Buffer.alloc(e - s, 1)]),
    });
    try {
      const b = await publisher.createContainer(token, igId, { videoUrl: notMp4.url, caption: caption('format2') });
      expect(await pollUntilDone(publisher, token, b.containerId)).toMatchObject({
        code: 'ERROR',
        error: { key: 'instagram_unsupported_format' },
      });
    } finally {
      await notMp4.close();
    }
  });

  it('publishing a container still in progress is refused without a post', async () => {
    const { publisher, token, igId } = await connect();
    const before = sim.posts().length;
    const { containerId } = await publisher.createContainer(token, igId, {
      videoUrl: media.url,
      caption: caption('early'),
    });
    const err = await expectPlatformError(publisher.publish(token, igId, containerId), 'retry-later');
    expect(err.key).toBe('instagram_not_ready');
    expect(isOutcomeUnknown(err)).toBe(false);
    expect(sim.posts().length).toBe(before);
  });

  it('a reply that never comes after the post went live is reconciled to that post, never a second one', async () => {
    const { publisher, token, igId } = await connect({ publishTimeoutMs: 1_000 });
    const text = caption('timeout');
    const { containerId } = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: text });
    await pollUntilDone(publisher, token, containerId);
    const before = sim.posts().length;
    const since = new Date(Date.now() - 60_000);
    sim.failAfterNextPublish('hang');
    const err = await publisher.publish(token, igId, containerId).catch((e) => e);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(err.key).toBe('instagram_publish_unknown');
    const outcome = await publisher.reconcile(token, igId, { containerId, caption: text, since });
    expect(outcome).toMatchObject({
      state: 'published',
      media: { id: sim.posts().at(-1)!.id, permalink: sim.posts().at(-1)!.permalink },
    });
    expect(sim.posts().length).toBe(before + 1);
  });

  it('a 5xx after the post went live is an unknown outcome reconciled to the post; a 5xx before it is safe to publish', async () => {
    const { publisher, token, igId } = await connect();
    const text = caption('5xx');
    const { containerId } = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: text });
    await pollUntilDone(publisher, token, containerId);
    const before = sim.posts().length;
    const since = new Date(Date.now() - 60_000);

    // Refused before publishing: reconcile says ready, publishing once is safe.
    sim.injectFault({
      path: '/media_publish',
      status: 503,
      body: { error: { message: 'Service unavailable', code: 2, is_transient: true } },
    });
    expect(isOutcomeUnknown(await publisher.publish(token, igId, containerId).catch((e) => e))).toBe(true);
    expect(await publisher.reconcile(token, igId, { containerId, caption: text, since })).toEqual({ state: 'ready' });
    expect(sim.posts().length).toBe(before);

    sim.failAfterNextPublish('error500');
    expect(isOutcomeUnknown(await publisher.publish(token, igId, containerId).catch((e) => e))).toBe(true);
    const outcome = await publisher.reconcile(token, igId, { containerId, caption: text, since });
    expect(outcome).toMatchObject({ state: 'published', media: { id: sim.posts().at(-1)!.id } });
    expect(sim.posts().length).toBe(before + 1);
    // The container is spent: a blind retry would be refused, not posted twice.
    await expectPlatformError(publisher.publish(token, igId, containerId), 'retry-later');
    expect(sim.posts().length).toBe(before + 1);
  });

  it('a container not published within 24 h expires: refused, reconciled as expired', async () => {
    const s = await startInstagramSimulator();
    try {
      const { publisher, token, igId } = await connect({ s });
      const { containerId } = await publisher.createContainer(token, igId, {
        videoUrl: media.url,
        caption: caption('old'),
      });
      expect((await pollUntilDone(publisher, token, containerId, s)).code).toBe('FINISHED');
      s.advance(DAY + 1000);
      expect((await publisher.containerStatus(token, containerId)).code).toBe('EXPIRED');
      const err = await expectPlatformError(publisher.publish(token, igId, containerId), 'retry-later');
      expect(err.key).toBe('instagram_container_expired');
      expect(await publisher.reconcile(token, igId, { containerId, caption: 'x', since: new Date() })).toEqual({
        state: 'expired',
      });
      expect(s.posts()).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  it('the publishing limit makes the job wait until a slot frees, and media_publish enforces it', async () => {
    const s = await startInstagramSimulator({ publish: { publishLimit: 1, finishAfterPolls: 1 } });
    try {
      const { publisher, token, igId } = await connect({ s });
      const one = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: caption('q1') });
      const two = await publisher.createContainer(token, igId, { videoUrl: media.url, caption: caption('q2') });
      await pollUntilDone(publisher, token, one.containerId, s);
      await pollUntilDone(publisher, token, two.containerId, s);
      await publisher.publish(token, igId, one.containerId);

      const wait = await expectPlatformError(publisher.ensurePublishingSlot(token, igId), 'retry-later');
      expect(wait).toMatchObject({ key: 'instagram_publish_limit_used', params: { used: 1, total: 1 } });
      expect(wait.retryAfterSec).toBeGreaterThan(DAY / 1000 - 600);
      expect(wait.retryAfterSec).toBeLessThanOrEqual(DAY / 1000);
      const refused = await expectPlatformError(publisher.publish(token, igId, two.containerId), 'retry-later');
      expect(refused).toMatchObject({ key: 'instagram_publish_limit', code: '9/2207042' });
      expect(refused.retryAfterSec).toBeGreaterThan(0);
      expect(s.posts()).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('reads stats: likes, comments, views, shares and saves; no insights yet or too few viewers count as 0', async () => {
    const { publisher, token, igId } = await connect();
    const ids: string[] = [];
    for (const n of ['s1', 's2', 's3']) {
      const { containerId } = await publisher.createContainer(token, igId, {
        videoUrl: media.url,
        caption: caption(n),
      });
      await pollUntilDone(publisher, token, containerId);
      ids.push((await publisher.publish(token, igId, containerId)).mediaId);
    }
    const posts = ids.map((id) => sim.posts().find((p) => p.id === id)!);
    Object.assign(posts[0]!, { views: 1234, like_count: 56, comments_count: 7 });
    Object.assign(posts[1]!, { like_count: 3, insights: 'empty' });
    Object.assign(posts[2]!, { comments_count: 2, insights: 'not-enough-viewers' });
    expect(await publisher.stats(token, [...ids, '17999999999999999'])).toEqual([
      { id: ids[0], views: 1234, likes: 56, comments: 7, shares: 0, saves: 0 },
      { id: ids[1], views: 0, likes: 3, comments: 0, shares: 0, saves: 0 },
      { id: ids[2], views: 0, likes: 0, comments: 2, shares: 0, saves: 0 },
    ]);
  });

  it('sorts token and rate-limit errors: invalid token → refresh-token, expired or revoked → reconnect, code 4 → retry-later', async () => {
    const { publisher, token, igId } = await connect();
    sim.injectFault({
      path: '/content_publishing_limit',
      status: 401,
      body: { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } },
    });
    expect((await expectPlatformError(publisher.publishingLimit(token, igId), 'refresh-token')).code).toBe('190');
    const rate = {
      message: '(#4) Application request limit reached',
      type: 'OAuthException',
      code: 4,
      is_transient: true,
    };
    sim.injectFault({
      path: '/media',
      method: 'POST',
      status: 400,
      body: { error: rate },
      headers: { 'retry-after': '120' },
    });
    const limited = await expectPlatformError(
      publisher.createContainer(token, igId, { videoUrl: media.url, caption: 'x' }),
      'retry-later',
    );
    expect(limited.retryAfterSec).toBe(120);
    sim.expireAccessTokens();
    const expired = await expectPlatformError(publisher.publishingLimit(token, igId), 'reconnect');
    expect(expired).toMatchObject({ code: '190/463', key: 'instagram_cannot_refresh' });

    const other = await connect();
    sim.revokeAll();
    const revoked = await expectPlatformError(other.publisher.publishingLimit(other.token, other.igId), 'reconnect');
    expect(revoked.code).toBe('190/458');
    const gone = { error: { message: 'Access token revoked', type: 'OAuthException', code: 'REVOKED_ACCESS_TOKEN' } };
    const fresh = await connect();
    sim.injectFault({ path: '/media', status: 400, body: gone });
    await expectPlatformError(
      fresh.publisher.createContainer(fresh.token, fresh.igId, { videoUrl: media.url, caption: 'x' }),
      'reconnect',
    );
    sim.injectFault({
      path: '/media',
      status: 400,
      body: { error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } },
    });
    await expectPlatformError(
      fresh.publisher.createContainer(fresh.token, fresh.igId, { videoUrl: media.url, caption: 'x' }),
      'bad-request',
    );
  });

  it('exports the recommended poll budget and the reason when it is spent', () => {
    expect(INSTAGRAM_CONTAINER_POLL).toEqual({ intervalSec: 60, maxPolls: 5 });
    expect(processingTimeout()).toMatchObject({
      kind: 'retry-later',
      key: 'instagram_processing_timeout',
      params: { minutes: 5 },
    });
    expect(processingTimeout({ intervalSec: 30, maxPolls: 20 }).params).toEqual({ minutes: 10 });
  });
});

describe('Instagram pre-flight and caption', () => {
  const good: MediaFacts = {
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    videoCodec: 'h264',
    audioCodec: 'aac',
    durationSec: 30,
    width: 1080,
    height: 1920,
    fps: 30,
    sizeBytes: 20 * 1024 * 1024,
  };

  it('accepts a vertical H.264/AAC MP4 and a silent one', () => {
    expect(checkInstagramFile(good)).toBeNull();
    expect(checkInstagramFile({ ...good, audioCodec: null, videoCodec: 'hevc' })).toBeNull();
  });

  it.each([
    [{ container: 'matroska,webm' }, 'instagram_file_container', { container: 'matroska,webm' }],
    [{ videoCodec: 'vp9' }, 'instagram_file_video_codec', { codec: 'vp9' }],
    [{ audioCodec: 'opus' }, 'instagram_file_audio_codec', { codec: 'opus' }],
    [{ durationSec: 2 }, 'instagram_file_duration', { min: 3, max: 900, duration: 2 }],
    [{ durationSec: 901 }, 'instagram_file_duration', { min: 3, max: 900, duration: 901 }],
    [{ sizeBytes: 301 * 1024 * 1024 }, 'instagram_file_size', { max: 300, size: 301 }],
    [{ fps: 15 }, 'instagram_file_fps', { min: 23, max: 60, fps: 15 }],
    [{ fps: 120 }, 'instagram_file_fps', { min: 23, max: 60, fps: 120 }],
    [{ width: 2160, height: 3840 }, 'instagram_file_width', { max: 1920, width: 2160 }],
    [{ width: 1080, height: 4000 }, 'instagram_file_height', { max: 3600, height: 4000 }],
    [{ width: 1920, height: 100 }, 'instagram_file_aspect', { width: 1920, height: 100 }],
  ] as const)('refuses %o with %s', (change, key, params) => {
    const err = checkInstagramFile({ ...good, ...change });
    expect(err).toMatchObject({ kind: 'bad-request', platform: 'instagram', key, params });
  });

  it('builds the caption from title, description and tags, without repeating a hashtag', () => {
    const text = buildInstagramCaption({
      title: 'Morning #run',
      description: 'By the river',
      tags: ['#run', 'city life', 'Kyiv', ''],
    });
    expect(text).toBe('Morning #run\n\nBy the river\n\n#citylife #Kyiv');
  });

  it('refuses a caption over 2200 characters, 30 hashtags or 20 mentions', async () => {
    const long = { title: 'ї'.repeat(2201), description: '', tags: [] };
    expect(() => buildInstagramCaption(long)).toThrow(
      expect.objectContaining({ key: 'instagram_caption_too_long', params: { max: 2200, length: 2201 } }),
    );
    expect(buildInstagramCaption({ title: 'ї'.repeat(2200), description: '', tags: [] })).toHaveLength(2200);
    const tags = Array.from({ length: 31 }, (_, i) => `t${i}`);
    expect(() => buildInstagramCaption({ title: 'x', description: '', tags })).toThrow(
      expect.objectContaining({ key: 'instagram_caption_hashtags', params: { max: 30, count: 31 } }),
    );
    const mentions = Array.from({ length: 21 }, (_, i) => `@u${i}`).join(' ');
    const err = await expectPlatformError(
      () => buildInstagramCaption({ title: mentions, description: '', tags: [] }),
      'bad-request',
    );
    expect(err).toMatchObject({ key: 'instagram_caption_mentions', params: { max: 20, count: 21 } });
  });
});
