import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createPlatformHttp } from '../../server/platforms/http';
import type { MediaFacts, PublishMeta, PublishSource } from '../../server/platforms/publish-types';
import { startGoogleSimulator, type GoogleSimulator, type SimVideo } from '../../sim/platforms/google';
import { startLocalProxy, type LocalProxy } from '../../sim/platforms/local-proxy';
import type { TokenSet } from '../../server/platforms/types';
import { YouTubeDriver } from '../../server/platforms/youtube/youtube.driver';
import { isUploadSessionExpired } from '../../server/platforms/youtube/youtube.errors';
import { checkYouTubeFile } from '../../server/platforms/youtube/youtube.preflight';
import { YOUTUBE_QUOTA, YouTubePublisher } from '../../server/platforms/youtube/youtube.publisher';
import { decodeMessage, splitDetail } from '../../src/contract/stored-message';
import { REDIRECT_URI, expectPlatformError, heldPut, openConsent, storedKey } from './helpers';

const CLIENT = { clientId: '77-publish.apps.googleusercontent.com', clientSecret: 'GOCSPX-publish' };
const UNIT = 256 * 1024;

let sim: GoogleSimulator;
let proxy: LocalProxy;
const closers: Array<() => Promise<void>> = [];

function clients(s: GoogleSimulator, opts: { proxy?: string; timeoutMs?: number } = {}) {
  const http = createPlatformHttp({
    proxy: opts.proxy,
    timeoutMs: opts.timeoutMs ?? 10_000,
    platform: 'youtube',
    allowPrivateProxy: true,
  });
  closers.push(() => http.close());
  const baseUrls = { auth: s.url, token: s.url, api: s.url };
  return {
    driver: new YouTubeDriver({ http, credentials: CLIENT, redirectUri: REDIRECT_URI, baseUrls }),
    publisher: new YouTubePublisher({ http, baseUrls }),
  };
}

async function connect(driver: YouTubeDriver): Promise<TokenSet> {
  const { query } = await openConsent(driver.authorizationUrl({ state: 'st' }));
  return driver.exchangeCode({ code: driver.parseCallback(query).code });
}

/** A file in memory, streamed in 64 KiB pieces like a disk read; remembers the ranges it was asked for. */
function bufferSource(buf: Buffer): PublishSource & { opened: Array<[number, number]> } {
  const opened: Array<[number, number]> = [];
  return {
    size: buf.length,
    contentType: 'video/mp4',
    opened,
    open(start, end) {
      opened.push([start, end]);
      return Readable.from(
        (function* () {
          for (let i = start; i < end; i += 64 * 1024) yield buf.subarray(i, Math.min(end, i + 64 * 1024));
        })(),
      );
    },
  };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let n = 0;
const meta = (over: Partial<PublishMeta> = {}): PublishMeta => ({
  title: `Kadr test video ${++n}`,
  description: 'Опис відео',
  tags: ['kadr', 'shorts'],
  ...over,
});

/** Every chunk started exactly at the byte the session had acknowledged: nothing resent, nothing skipped. */
function expectEachByteOnce(s: GoogleSimulator, sessionUri: string, file: Buffer) {
  const session = s.uploadSessions.get(new URL(sessionUri).searchParams.get('upload_id')!)!;
  for (const c of session.chunks) expect(c.start).toBe(c.acknowledgedBefore);
  expect(session.chunks.reduce((a, c) => a + c.persisted, 0)).toBe(file.length);
  const video = s.videos.find((v) => v.id === session.videoId)!;
  expect(video.sha256).toBe(sha256(file));
  return session;
}

let tokens: TokenSet;
let yt: ReturnType<typeof clients>;

beforeAll(async () => {
  sim = await startGoogleSimulator({ clients: { [CLIENT.clientId]: CLIENT.clientSecret } });
  proxy = await startLocalProxy();
  yt = clients(sim);
  tokens = await connect(yt.driver);
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await proxy.close();
  await sim.close();
});

describe('YouTube publisher: resumable upload', () => {
  it('uploads through the profile proxy in growing 256 KiB-multiple chunks and makes exactly one video', async () => {
    proxy.reset();
    const { publisher } = clients(sim, { proxy: proxy.url });
    const file = randomBytes(9 * UNIT + 1234);
    const m = meta();
    const posts = sim.posts();
    const sessionUri = await publisher.startUpload(tokens.accessToken, m, file.length, { privacyStatus: 'public' });
    expect(sessionUri.startsWith(`${sim.url}/upload/youtube/v3/videos?`)).toBe(true);
    expect(new URL(sessionUri).searchParams.get('upload_id')).toBeTruthy();

    const progress: number[] = [];
    const { videoId } = await publisher.upload(tokens.accessToken, sessionUri, bufferSource(file), {
      chunkSize: 2 * UNIT,
      maxChunkSize: 4 * UNIT,
      fastChunkMs: Number.POSITIVE_INFINITY,
      onProgress: (a, total) => (expect(total).toBe(file.length), progress.push(a)),
    });
    expect(sim.posts()).toBe(posts + 1);
    const session = expectEachByteOnce(sim, sessionUri, file);
    // Whole, quickly acknowledged chunks double the next one up to maxChunkSize.
    expect(session.chunks.map((c) => c.end - c.start)).toEqual([2 * UNIT, 4 * UNIT, 3 * UNIT + 1234]);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(file.length);
    const video = sim.videos.find((v) => v.id === videoId)!;
    expect(video).toMatchObject({ title: m.title, description: m.description, tags: m.tags, privacyStatus: 'public' });

    const host = new URL(sim.url).host;
    expect(proxy.records.length).toBeGreaterThan(0);
    expect(proxy.records.every((r) => r.target === host && r.allowed)).toBe(true);
  });

  it('refuses metadata YouTube would refuse before any request', async () => {
    const before = sim.log.length;
    const start = (
      m: PublishMeta,
      opts: Parameters<YouTubePublisher['startUpload']>[3] = { privacyStatus: 'public' },
    ) => expectPlatformError(yt.publisher.startUpload(tokens.accessToken, m, 10, opts), 'bad-request');
    expect((await start(meta({ title: ' ' }))).key).toBe('youtube_title_required');
    expect((await start(meta({ title: 'x'.repeat(101) }))).key).toBe('youtube_title_too_long');
    expect((await start(meta({ title: 'a <b>' }))).key).toBe('youtube_title_brackets');
    // 2,501 Cyrillic letters are 5,002 bytes: the limit is in bytes.
    expect((await start(meta({ description: 'ї'.repeat(2501) }))).key).toBe('youtube_video_description_too_long');
    expect((await start(meta({ tags: Array.from({ length: 50 }, (_, i) => `tag number ${i}`) }))).key).toBe(
      'youtube_tags_too_long',
    );
    const at = new Date(Date.now() + 86_400_000);
    expect((await start(meta(), { privacyStatus: 'public', publishAt: at })).key).toBe('youtube_publish_at_private');
    expect(sim.log.length).toBe(before);
  });

  it('schedules a private video with publishAt', async () => {
    const file = randomBytes(UNIT);
    const at = new Date(Date.now() + 86_400_000);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, {
      privacyStatus: 'private',
      publishAt: at,
    });
    const { videoId } = await yt.publisher.upload(tokens.accessToken, uri, bufferSource(file));
    expect(sim.videos.find((v) => v.id === videoId)).toMatchObject({
      privacyStatus: 'private',
      publishAt: at.toISOString(),
    });
  });

  it('a 5xx in the middle of a chunk: asks the session and resumes from the persisted byte', async () => {
    const file = randomBytes(6 * UNIT + 77);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    let armed = false;
    const posts = sim.posts();
    await yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), {
      chunkSize: 2 * UNIT,
      maxChunkSize: 2 * UNIT,
      retryBaseMs: 1,
      onProgress: (a) => {
        if (armed || a < 2 * UNIT) return;
        armed = true;
        sim.failNextChunk({ status: 503, persist: UNIT });
      },
    });
    expect(sim.posts()).toBe(posts + 1);
    const session = expectEachByteOnce(sim, uri, file);
    expect(session.chunks[1]).toMatchObject({ start: 2 * UNIT, end: 4 * UNIT, persisted: UNIT });
    expect(session.chunks[2]!.start).toBe(3 * UNIT);
  });

  it('a connection dropped mid-chunk through the proxy: resumes from the persisted byte', async () => {
    const { publisher } = clients(sim, { proxy: proxy.url });
    const file = randomBytes(4 * UNIT + 5);
    const uri = await publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    let armed = false;
    await publisher.upload(tokens.accessToken, uri, bufferSource(file), {
      chunkSize: 2 * UNIT,
      maxChunkSize: 2 * UNIT,
      retryBaseMs: 1,
      onProgress: (a) => {
        if (armed || a < 2 * UNIT) return;
        armed = true;
        sim.failNextChunk({ drop: true, persist: UNIT });
      },
    });
    const session = expectEachByteOnce(sim, uri, file);
    expect(session.chunks[1]).toMatchObject({ start: 2 * UNIT, persisted: UNIT });
  });

  it('a 308 that acknowledges fewer bytes than were sent: resumes from its Range', async () => {
    const file = randomBytes(8 * UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    sim.acknowledgeLessNext(UNIT);
    const source = bufferSource(file);
    await yt.publisher.upload(tokens.accessToken, uri, source, { chunkSize: 4 * UNIT, maxChunkSize: 4 * UNIT });
    const session = expectEachByteOnce(sim, uri, file);
    expect(session.chunks[0]).toMatchObject({ start: 0, end: 4 * UNIT, persisted: UNIT });
    expect(session.chunks[1]!.start).toBe(UNIT);
    expect(source.opened.filter(([s]) => s === 0)).toHaveLength(1);
  });

  it('after a crash a new worker resumes the stored session from the acknowledged byte', async () => {
    const file = randomBytes(6 * UNIT + 3);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    const crash = new AbortController();
    await expect(
      yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), {
        chunkSize: 2 * UNIT,
        maxChunkSize: 2 * UNIT,
        signal: crash.signal,
        onProgress: (a) => a >= 4 * UNIT && crash.abort(new Error('worker killed')),
      }),
    ).rejects.toThrow('worker killed');
    const posts = sim.posts();
    expect(await yt.publisher.probe(tokens.accessToken, uri, file.length)).toEqual({
      state: 'incomplete',
      acknowledged: 4 * UNIT,
    });

    const restarted = clients(sim).publisher;
    const source = bufferSource(file);
    const { videoId } = await restarted.upload(tokens.accessToken, uri, source, {
      chunkSize: 2 * UNIT,
      maxChunkSize: 2 * UNIT,
    });
    expect(source.opened).toEqual([
      [4 * UNIT, 6 * UNIT],
      [6 * UNIT, file.length],
    ]);
    expect(sim.posts()).toBe(posts + 1);
    expect(expectEachByteOnce(sim, uri, file).videoId).toBe(videoId);
    // Running the step again answers the same video instead of a second one.
    expect(await restarted.upload(tokens.accessToken, uri, bufferSource(file))).toEqual({ videoId });
    expect(sim.posts()).toBe(posts + 1);
  });

  it('a lost reply to the last chunk (connection reset) is settled by asking the session: one video', async () => {
    const file = randomBytes(3 * UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    const posts = sim.posts();
    sim.loseNextFinalReply('reset');
    const { videoId } = await yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), {
      chunkSize: 2 * UNIT,
      maxChunkSize: 2 * UNIT,
      retryBaseMs: 1,
    });
    expect(sim.posts()).toBe(posts + 1);
    expect(sim.videos.at(-1)!.id).toBe(videoId);
  });

  it('the last chunk sent by two workers at once (one lost its lease): one video, the slower told of it', async () => {
    const file = randomBytes(3 * UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    const posts = sim.posts();
    const headers = {
      authorization: `Bearer ${tokens.accessToken}`,
      'content-range': `bytes 0-${file.length - 1}/${file.length}`,
    };
    const first = await heldPut(uri, headers, file);
    const second = await fetch(uri, { method: 'PUT', headers, body: new Uint8Array(file) });
    expect(second.status).toBe(201);
    const { id } = (await second.json()) as { id: string };
    expect(await first.finish()).toBe(200); // the session's video, as a finished session answers
    expect(sim.posts()).toBe(posts + 1);
    expect(sim.videos.find((v) => v.id === id)!.sha256).toBe(sha256(file));
  });

  it('a timeout after YouTube made the video: probe, then the uploads playlist once the session is gone', async () => {
    const file = randomBytes(2 * UNIT + 9);
    const m = meta();
    const since = new Date();
    const uri = await yt.publisher.startUpload(tokens.accessToken, m, file.length, { privacyStatus: 'public' });
    const posts = sim.posts();
    sim.loseNextFinalReply('hang');
    const lost = await expectPlatformError(
      yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), { chunkTimeoutMs: 500, maxRetries: 0 }),
      'retry-later',
    );
    expect(lost.code).toBe('timeout');
    expect(sim.posts()).toBe(posts + 1); // the platform made it; we never heard

    const state = await yt.publisher.probe(tokens.accessToken, uri, file.length);
    expect(state).toEqual({ state: 'completed', videoId: sim.videos.at(-1)!.id });

    sim.expireUploadSessions();
    expect(await yt.publisher.probe(tokens.accessToken, uri, file.length)).toEqual({ state: 'expired' });
    expect(await yt.publisher.findUploaded(tokens.accessToken, m, since)).toEqual({ videoId: sim.videos.at(-1)!.id });
    expect(await yt.publisher.findUploaded(tokens.accessToken, meta(), since)).toBeNull();
    expect(sim.posts()).toBe(posts + 1);
  });

  it('an expired session with no video: the platform confirms none, and a new session posts once', async () => {
    const file = randomBytes(4 * UNIT);
    const m = meta();
    const since = new Date();
    const uri = await yt.publisher.startUpload(tokens.accessToken, m, file.length, { privacyStatus: 'public' });
    await expect(
      yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), {
        chunkSize: UNIT,
        maxChunkSize: UNIT,
        onProgress: (a) => a >= UNIT && sim.expireUploadSessions(),
      }),
    ).rejects.toSatisfy(isUploadSessionExpired);
    const posts = sim.posts();
    expect(await yt.publisher.findUploaded(tokens.accessToken, m, since)).toBeNull();
    const fresh = await yt.publisher.startUpload(tokens.accessToken, m, file.length, { privacyStatus: 'public' });
    await yt.publisher.upload(tokens.accessToken, fresh, bufferSource(file));
    expect(sim.posts()).toBe(posts + 1);
    expectEachByteOnce(sim, fresh, file);
  });

  it('an expired access token is refresh-token; after a refresh the upload goes on from where it was', async () => {
    const file = randomBytes(4 * UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    const stale = tokens;
    await expectPlatformError(
      yt.publisher.upload(stale.accessToken, uri, bufferSource(file), {
        chunkSize: UNIT,
        maxChunkSize: UNIT,
        onProgress: (a) => a >= 2 * UNIT && sim.expireAccessTokens(),
      }),
      'refresh-token',
    );
    await expectPlatformError(
      yt.publisher.startUpload(stale.accessToken, meta(), 1, { privacyStatus: 'public' }),
      'refresh-token',
    );
    tokens = await yt.driver.refresh(stale);
    const posts = sim.posts();
    await yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), { chunkSize: UNIT, maxChunkSize: UNIT });
    expect(sim.posts()).toBe(posts + 1);
    expectEachByteOnce(sim, uri, file);
  });

  it('quota and the channel upload limit are retry-later with when to try again', async () => {
    sim.insertCallsLeft = 0;
    try {
      const quota = await expectPlatformError(
        yt.publisher.startUpload(tokens.accessToken, meta(), 10, { privacyStatus: 'public' }),
        'retry-later',
      );
      expect(quota).toMatchObject({ code: 'quotaExceeded', key: 'youtube_quota' });
      expect(quota.retryAfterSec).toBeGreaterThan(0);
      expect(quota.retryAfterSec).toBeLessThanOrEqual(24 * 3600);
    } finally {
      sim.insertCallsLeft = 100;
    }
    sim.channelUploadsLeft = 0;
    try {
      const limit = await expectPlatformError(
        yt.publisher.startUpload(tokens.accessToken, meta(), 10, { privacyStatus: 'public' }),
        'retry-later',
      );
      expect(limit).toMatchObject({
        code: 'uploadLimitExceeded',
        key: 'youtube_upload_limit',
        retryAfterSec: 24 * 3600,
      });
    } finally {
      sim.channelUploadsLeft = Number.POSITIVE_INFINITY;
    }
    const used = sim.quotaUsed;
    sim.quotaUsed = YOUTUBE_QUOTA.dailyUnits;
    try {
      const units = await expectPlatformError(yt.publisher.stats(tokens.accessToken, ['x']), 'retry-later');
      expect(units.code).toBe('quotaExceeded');
    } finally {
      sim.quotaUsed = used;
    }
  });

  it('a quota refusal in the middle of an upload is retry-later, not retried blindly', async () => {
    const file = randomBytes(2 * UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    const body = {
      error: {
        code: 403,
        message: 'quota',
        errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }],
      },
    };
    sim.injectFault({ path: '/upload/youtube/v3/videos', method: 'PUT', status: 403, body });
    const err = await expectPlatformError(
      yt.publisher.upload(tokens.accessToken, uri, bufferSource(file)),
      'retry-later',
    );
    expect(err.code).toBe('quotaExceeded');
  });

  it('gives up after bounded retries with the last fault', async () => {
    const file = randomBytes(UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    sim.injectFault({ path: '/upload/youtube/v3/videos', method: 'PUT', status: 503, times: 3 });
    const err = await expectPlatformError(
      yt.publisher.upload(tokens.accessToken, uri, bufferSource(file), { maxRetries: 2, retryBaseMs: 1 }),
      'retry-later',
    );
    expect(err.httpStatus).toBe(503);
    sim.clearFaults();
  });

  it('a revoked grant: the upload says refresh-token and the refresh says reconnect', async () => {
    const own = await startGoogleSimulator({ clients: { [CLIENT.clientId]: CLIENT.clientSecret } });
    closers.push(() => own.close());
    const { driver, publisher } = clients(own);
    const t = await connect(driver);
    const uri = await publisher.startUpload(t.accessToken, meta(), UNIT, { privacyStatus: 'public' });
    own.revokeAll();
    await expectPlatformError(publisher.upload(t.accessToken, uri, bufferSource(randomBytes(UNIT))), 'refresh-token');
    expect((await expectPlatformError(driver.refresh(t), 'reconnect')).key).toBe('google_revoked');
    expect(own.posts()).toBe(0);
  });
});

describe('YouTube publisher: processing, status and stats', () => {
  async function uploaded(): Promise<string> {
    const file = randomBytes(UNIT);
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), file.length, { privacyStatus: 'public' });
    return (await yt.publisher.upload(tokens.accessToken, uri, bufferSource(file))).videoId;
  }

  it('uploaded → processed, with the watch link', async () => {
    const id = await uploaded();
    expect(await yt.publisher.videoStatus(tokens.accessToken, id)).toMatchObject({
      uploadStatus: 'uploaded',
      outcome: 'processing',
    });
    sim.advance(sim.processingMs + 1);
    expect(await yt.publisher.videoStatus(tokens.accessToken, id)).toEqual({
      videoId: id,
      uploadStatus: 'processed',
      privacyStatus: 'public',
      outcome: 'ready',
      url: `https://www.youtube.com/watch?v=${id}`,
    });
    expect((await yt.publisher.videoStatus(tokens.accessToken, id, { short: true })).url).toBe(
      `https://www.youtube.com/shorts/${id}`,
    );
  });

  it('a processing failure and a rejection end with their reason', async () => {
    sim.failNextProcessing('codec');
    const failed = await uploaded();
    sim.rejectNextProcessing('duplicate');
    const rejected = await uploaded();
    sim.advance(sim.processingMs + 1);
    const f = await yt.publisher.videoStatus(tokens.accessToken, failed);
    expect(f).toMatchObject({ uploadStatus: 'failed', failureReason: 'codec', outcome: 'failed' });
    expect(decodeMessage(splitDetail(f.reason!).message)).toEqual({
      key: storedKey('youtube_processing_failed'),
      params: {},
    });
    expect(splitDetail(f.reason!).detail).toBe('codec');
    const r = await yt.publisher.videoStatus(tokens.accessToken, rejected);
    expect(r).toMatchObject({ uploadStatus: 'rejected', rejectionReason: 'duplicate', outcome: 'failed' });
    expect(decodeMessage(splitDetail(r.reason!).message)?.key).toBe(storedKey('youtube_rejected'));
    const gone = await yt.publisher.videoStatus(tokens.accessToken, 'nosuchvideo');
    expect(gone).toMatchObject({ uploadStatus: null, outcome: 'failed' });
    expect(decodeMessage(gone.reason!)?.key).toBe(storedKey('youtube_video_missing'));
  });

  it('reads views, likes and comments in batches of 50 (counts come as strings)', async () => {
    const made: SimVideo[] = Array.from({ length: 60 }, (_, i) => ({
      ...sim.videos[0]!,
      id: `stat${String(i).padStart(7, '0')}`,
      statistics: { viewCount: 1000 + i, likeCount: i, commentCount: 2 * i },
    }));
    sim.videos.push(...made);
    const before = sim.log.length;
    const stats = await yt.publisher.stats(tokens.accessToken, [...made.map((v) => v.id), 'deletedvid1']);
    expect(stats).toHaveLength(60);
    expect(stats[59]).toEqual({ id: made[59]!.id, views: 1059, likes: 59, comments: 118 });
    const calls = sim.log.slice(before).filter((l) => l.path === '/youtube/v3/videos');
    expect(calls.map((c) => c.query.id!.split(',').length)).toEqual([50, 11]);
    expect(calls.every((c) => c.query.part === 'statistics')).toBe(true);
  });
});

describe('YouTube simulator: the resumable protocol as Google documents it', () => {
  it('answers status queries with 308 (Range once bytes persist), refuses odd chunks, 404s lost sessions', async () => {
    const size = 2 * UNIT + 10;
    const uri = await yt.publisher.startUpload(tokens.accessToken, meta(), size, { privacyStatus: 'public' });
    const put = (headers: Record<string, string>, body: Uint8Array<ArrayBuffer> = new Uint8Array(0)) =>
      fetch(uri, { method: 'PUT', headers: { authorization: `Bearer ${tokens.accessToken}`, ...headers }, body });
    let res = await put({ 'content-range': `bytes */${size}` });
    expect(res.status).toBe(308);
    expect(res.headers.get('range')).toBeNull();
    res = await put({ 'content-range': `bytes 0-999/${size}` }, new Uint8Array(randomBytes(1000)));
    expect(res.status).toBe(400);
    expect((await res.json()).error.errors[0].reason).toBe('invalidChunkSize');
    res = await put({ 'content-range': `bytes 0-${UNIT - 1}/${size}` }, new Uint8Array(randomBytes(UNIT)));
    expect(res.status).toBe(308);
    expect(res.headers.get('range')).toBe(`bytes=0-${UNIT - 1}`);
    const unknown = new URL(uri);
    unknown.searchParams.set('upload_id', 'nope');
    expect((await fetch(unknown, { method: 'PUT', headers: { 'content-range': `bytes */${size}` } })).status).toBe(404);
  });

  it('the publisher refuses a chunk size Google would refuse', async () => {
    const file = randomBytes(10);
    await expect(
      yt.publisher.upload(tokens.accessToken, 'http://127.0.0.1:1/x', bufferSource(file), { chunkSize: 1000 }),
    ).rejects.toThrow(RangeError);
  });

  it('exports the quota figures the quota counter uses', () => {
    expect(YOUTUBE_QUOTA).toMatchObject({
      dailyUnits: 10_000,
      insertCallsPerDay: 100,
      resetTimeZone: 'America/Los_Angeles',
      costs: { videosInsert: 1, videosList: 1, channelsList: 1, playlistItemsList: 1 },
    });
  });
});

describe('YouTube pre-flight gate', () => {
  const good: MediaFacts = {
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    videoCodec: 'h264',
    audioCodec: 'aac',
    durationSec: 42.5,
    width: 1080,
    height: 1920,
    fps: 30,
    sizeBytes: 12_345_678,
  };
  const refusal = (over: Partial<MediaFacts>) => {
    const err = checkYouTubeFile({ ...good, ...over });
    expect(err?.kind).toBe('bad-request');
    return err!;
  };

  it('takes a rendered vertical MP4, a silent one, and WebM', () => {
    expect(checkYouTubeFile(good)).toBeNull();
    expect(checkYouTubeFile({ ...good, audioCodec: null })).toBeNull();
    expect(checkYouTubeFile({ ...good, container: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' })).toBeNull();
    expect(checkYouTubeFile({ ...good, width: 1920, height: 1080, durationSec: 3600 })).toBeNull();
  });

  it('refuses with the reason', () => {
    expect(refusal({ container: 'gif' })).toMatchObject({
      key: 'youtube_file_container',
      params: { container: 'gif' },
    });
    expect(refusal({ videoCodec: 'gif' })).toMatchObject({ key: 'youtube_file_video_codec', params: { codec: 'gif' } });
    expect(refusal({ audioCodec: 'dts_weird' })).toMatchObject({ key: 'youtube_file_audio_codec' });
    expect(refusal({ durationSec: 0 }).key).toBe('youtube_file_duration');
    expect(refusal({ durationSec: 12 * 3600 + 1 }).params).toMatchObject({ max: 43200 });
    expect(refusal({ sizeBytes: 0 }).key).toBe('youtube_file_size');
    expect(refusal({ sizeBytes: 257 * 1000 ** 3 }).key).toBe('youtube_file_size');
    expect(refusal({ fps: 120 })).toMatchObject({ key: 'youtube_file_fps', params: { fps: 120, max: 60 } });
    expect(refusal({ width: 0 }).key).toBe('youtube_file_resolution');
    expect(refusal({ width: 4320, height: 8192 })).toMatchObject({
      key: 'youtube_file_resolution',
      params: { max: 7680 },
    });
  });
});
