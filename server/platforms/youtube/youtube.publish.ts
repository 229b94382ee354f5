/**
 * YouTube's publish steps (the design in server/publishing/publish.worker.ts): gate → slot (units and inserts per Pacific day) →
 * resumable session (its URI stored) → upload from the acknowledged byte (the last chunk makes the video) →
 * status polled. An expired session is replaced only when the channel shows no such video (`findUploaded`).
 */
import { processingOverBudget, type PlatformCall, type StepContext, type StepResult } from '../publish-step';
import { youtubePost } from '../publish-types';
import { PlatformError } from '../types';
import { youtubeUpload } from './youtube.metadata';
import { isUploadSessionExpired } from './youtube.errors';
import { checkYouTubeFile } from './youtube.preflight';
import { YouTubePublisher } from './youtube.publisher';

type YouTubeHandle = { sessionUri?: string; since?: string; videoId?: string; playlisted?: boolean };

const publisher = ({ http, settings }: PlatformCall, ctx: StepContext) =>
  new YouTubePublisher({ http, baseUrls: settings.baseUrls, now: ctx.now });

/** Opens a session and stores its URI before the first byte. */
const session = async (ctx: StepContext, size: number, slot: number[] | null): Promise<YouTubeHandle | null> => {
  const since = ctx.now().toISOString();
  let sessionUri: string;
  try {
    sessionUri = await ctx.call((_d, token, call) =>
      publisher(call, ctx).startUpload(token, youtubeUpload(ctx.meta).meta, size, youtubeUpload(ctx.meta).opts),
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
    ({ videoId } = await ctx.call((_d, token, call) =>
      publisher(call, ctx).upload(token, h.sessionUri!, source, {
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
    const meta = youtubeUpload(ctx.meta).meta;
    const found = await ctx.call((_d, token, call) => publisher(call, ctx).findUploaded(token, meta, since));
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
  const s = await ctx.call((_d, token, call) => publisher(call, ctx).videoStatus(token, videoId, { short: true }));
  if (s.outcome === 'ready') {
    await playlist(ctx, videoId);
    return { next: 'published', remoteId: videoId, url: s.url };
  }
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
  const minutes = processingOverBudget(ctx, since);
  if (minutes !== null) {
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

/** The operator's playlist, once per post (recorded in the handle, so a later look does not add it twice). */
const playlist = async (ctx: StepContext, videoId: string) => {
  const playlistId = youtubePost(ctx.meta).playlistId?.trim();
  const h = ctx.handle as YouTubeHandle;
  if (!playlistId || h.playlisted) return;
  await ctx.call((_d, token, call) => publisher(call, ctx).addToPlaylist(token, playlistId, videoId));
  await ctx.save({ handle: { playlisted: true } });
};

/** Whether a session or a video is stored: the step asks YouTube where it stands. */
export const youtubeStarted = (ctx: StepContext) => {
  const h = ctx.handle as YouTubeHandle;
  return Boolean(h.videoId || ctx.row.remoteId || h.sessionUri);
};

/** The gate, a slot (units and inserts per Pacific day), then a session and the upload. */
export async function youtubePublish(ctx: StepContext): Promise<StepResult> {
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
}

/** A stored video is polled; a stored session is asked where it stands first (upload() does), then resumed. */
export async function youtubeReconcile(ctx: StepContext): Promise<StepResult> {
  const h = ctx.handle as YouTubeHandle;
  const videoId = h.videoId ?? ctx.row.remoteId;
  if (videoId) return poll(ctx, videoId, ctx.row.processingSince ?? ctx.now().toISOString());
  return upload(ctx, h);
}
