/**
 * YouTube's machine (see the design in publish.worker.ts): gate → slot (units and inserts per Pacific day) →
 * resumable session (its URI stored) → upload from the acknowledged byte (the last chunk makes the video) →
 * status polled. An expired session is replaced only when the channel shows no such video (`findUploaded`).
 */
import {
  PlatformError,
  YouTubePublisher,
  checkYouTubeFile,
  isUploadSessionExpired,
  type YouTubeBaseUrls,
} from '../platforms/index';
import type { PlatformHttp } from '../platforms/http';
import type { PlatformSteps, StepContext, StepResult } from './publish.steps';
import type { StatsReader } from './publish.stats';

type YouTubeHandle = { sessionUri?: string; since?: string; videoId?: string };

export function youtubeStatsReader(baseUrls?: Partial<YouTubeBaseUrls>): StatsReader {
  return (http, token, ids) => new YouTubePublisher({ http, baseUrls }).stats(token, ids);
}

export function youtubeSteps(baseUrls?: Partial<YouTubeBaseUrls>): PlatformSteps {
  const publisher = (http: PlatformHttp, ctx: StepContext) => new YouTubePublisher({ http, baseUrls, now: ctx.now });

  /** Opens a session and stores its URI before the first byte. */
  const session = async (ctx: StepContext, size: number, slot: number[] | null): Promise<YouTubeHandle | null> => {
    const since = ctx.now().toISOString();
    let sessionUri: string;
    try {
      sessionUri = await ctx.call((_d, token, { http }) =>
        publisher(http, ctx).startUpload(token, ctx.meta, size, { privacyStatus: 'public' }),
      );
    } catch (e) {
      if (slot) await ctx.giveBack(slot);
      throw e;
    }
    const h = { sessionUri, since, videoId: undefined };
    return (await ctx.save({ state: 'uploading', handle: h, bytesSent: 0, bytesTotal: size })) ? h : null;
  };

  const upload = async (ctx: StepContext, h: YouTubeHandle): Promise<StepResult> => {
    const source = await ctx.source();
    let videoId: string;
    try {
      ({ videoId } = await ctx.call((_d, token, { http }) =>
        publisher(http, ctx).upload(token, h.sessionUri!, source, {
          onProgress: ctx.progress,
          signal: ctx.signal,
          chunkSize: ctx.timing.youtubeChunkSize,
          maxChunkSize: ctx.timing.youtubeChunkSize,
          chunkTimeoutMs: ctx.timing.youtubeChunkTimeoutMs,
          retryBaseMs: 200,
        }),
      ));
    } catch (e) {
      if (!isUploadSessionExpired(e)) throw e;
      // The session is gone; the video may exist anyway. Only the channel's uploads can say.
      const since = new Date(h.since ?? ctx.now().toISOString());
      const found = await ctx.call((_d, token, { http }) => publisher(http, ctx).findUploaded(token, ctx.meta, since));
      if (found) videoId = found.videoId;
      else {
        const fresh = await session(ctx, source.size, null);
        return fresh ? upload(ctx, fresh) : { next: 'again', delayMs: 0 };
      }
    }
    const at = ctx.now().toISOString();
    await ctx.save({
      state: 'processing',
      processingSince: at,
      remoteId: videoId,
      bytesSent: source.size,
      handle: { ...h, videoId },
    });
    return poll(ctx, videoId, at);
  };

  const poll = async (ctx: StepContext, videoId: string, since: string): Promise<StepResult> => {
    const s = await ctx.call((_d, token, { http }) =>
      publisher(http, ctx).videoStatus(token, videoId, { short: true }),
    );
    if (s.outcome === 'ready') return { next: 'published', remoteId: videoId, url: s.url };
    if (s.outcome === 'failed') {
      const error = new PlatformError({
        kind: 'bad-request',
        platform: 'youtube',
        code: s.uploadStatus ?? 'missing',
        key: 'with_detail',
        params: { message: s.reason ?? '', detail: s.url },
      });
      return { next: 'refused', error };
    }
    if (ctx.now().getTime() - new Date(since).getTime() > ctx.timing.processingBudgetMs) {
      const minutes = Math.max(1, Math.round(ctx.timing.processingBudgetMs / 60_000));
      const error = new PlatformError({
        kind: 'retry-later',
        platform: 'youtube',
        code: 'processing_timeout',
        key: 'with_detail',
        params: { message: `kadr.publish.processing_timeout {"minutes":${minutes}}`, detail: s.url },
      });
      return { next: 'refused', error };
    }
    return { next: 'again', delayMs: ctx.timing.pollMs };
  };

  return async (ctx) => {
    const h = ctx.handle as YouTubeHandle;
    if (h.videoId || ctx.row.remoteId) {
      const videoId = h.videoId ?? ctx.row.remoteId!;
      return poll(ctx, videoId, ctx.row.processingSince ?? ctx.now().toISOString());
    }
    if (h.sessionUri) return upload(ctx, h); // upload() asks the session where it stands first
    const refused = checkYouTubeFile(await ctx.facts());
    if (refused) throw refused;
    const taken = await ctx.takeSlot();
    if (taken.until) {
      const reason = new PlatformError({ kind: 'retry-later', platform: 'youtube', key: 'youtube_quota' });
      return { next: 'wait', until: taken.until, reason };
    }
    const source = await ctx.source();
    const fresh = await session(ctx, source.size, taken.slot);
    return fresh ? upload(ctx, fresh) : { next: 'again', delayMs: 0 };
  };
}
