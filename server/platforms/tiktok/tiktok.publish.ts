/**
 * TikTok's publish steps (the design in server/publishing/publish.worker.ts): creator info → gate → slot → init (handle stored) →
 * chunked upload (the last chunk posts) → status polled. Re-entry after an unknown outcome asks `status` first.
 */
import { processingOverBudget, type PlatformCall, type StepContext, type StepResult } from '../publish-step';
import { tiktokPost, type PublishSource } from '../publish-types';
import { PlatformError, isPlatformError } from '../types';
import { tiktokResumeChunk, type TikTokChunkPlan } from './tiktok.limits';
import { pickTikTokPrivacy, tiktokCaption } from './tiktok.post-info';
import { checkTikTokFile } from './tiktok.preflight';
import { TikTokPublisher, type TikTokPublishStatus } from './tiktok.publisher';

type TikTokHandle = {
  publishId?: string;
  uploadUrl?: string;
  plan?: TikTokChunkPlan;
  username?: string;
  privateOnly?: boolean;
  /** Status polls that found the post complete but without its id yet. */
  idPolls?: number;
  /** New inits after expired links (bounded by maxFaults: a link that keeps expiring ends in a reason). */
  renewals?: number;
};

/** Polls after PUBLISH_COMPLETE that wait for the post's public id before storing the post without a link. */
const ID_POLLS = 5;

const publisher = ({ http, settings }: PlatformCall, ctx: StepContext) =>
  new TikTokPublisher({ http, baseUrls: settings.baseUrls, chunkSize: ctx.timing.tiktokChunkSize, retryDelayMs: 200 });

const status = (ctx: StepContext, h: TikTokHandle, size: number) =>
  ctx.call((_d, token, call) =>
    publisher(call, ctx).status(token, h.publishId!, { videoSize: size, username: h.username }),
  );

/** init, with the handle stored before a byte is sent. */
const init = async (
  ctx: StepContext,
  source: PublishSource,
  slot: number[] | null,
  renewals = 0,
): Promise<TikTokHandle | null> => {
  let h: TikTokHandle;
  try {
    h = await ctx.call(async (_d, token, call) => {
      const tt = publisher(call, ctx);
      const creator = await tt.creatorInfo(token);
      const s = await tt.init(token, ctx.meta, source.size, creator);
      const username = creator.username;
      const { publishId, uploadUrl, plan, privateOnly } = s;
      return { publishId, uploadUrl, plan, username, privateOnly, renewals };
    });
  } catch (e) {
    if (slot) await ctx.giveBack(slot); // nothing was posted: init made at most an empty session
    throw e;
  }
  const kept = await ctx.save({ state: 'uploading', handle: h, bytesSent: 0, bytesTotal: source.size });
  return kept ? h : null;
};

/**
 * Sends the file from `fromChunk`; an expired link with the file incomplete gets a new init, once per step (a link
 * that expires again at once is a fault like any other: backoff, bounded by maxFaults).
 */
const upload = async (ctx: StepContext, h: TikTokHandle, fromChunk: number, renewed = false): Promise<StepResult> => {
  const source = await ctx.source();
  try {
    await ctx.call((_d, token, call) => {
      const tt = publisher(call, ctx);
      const acknowledged = () =>
        tt.status(token, h.publishId!, { videoSize: source.size }).then((s) => s.uploadedBytes);
      return tt.upload(h.uploadUrl!, source, h.plan!, {
        fromChunk,
        onProgress: ctx.progress,
        signal: ctx.signal,
        acknowledged,
      });
    });
  } catch (e) {
    const renewals = (h.renewals ?? 0) + 1;
    if (!isPlatformError(e) || e.code !== 'upload_expired' || renewed || renewals > ctx.timing.maxFaults) throw e;
    const s = await status(ctx, h, source.size);
    if (s.outcome !== 'uploading') return settle(ctx, h, s);
    const fresh = await init(ctx, source, null, renewals);
    return fresh ? upload(ctx, fresh, 0, true) : { next: 'again', delayMs: 0 };
  }
  await ctx.save({ state: 'processing', processingSince: ctx.now().toISOString(), bytesSent: source.size });
  return { next: 'again', delayMs: ctx.timing.pollMs };
};

/** What a status answer means for the row. */
const settle = async (ctx: StepContext, h: TikTokHandle, s: TikTokPublishStatus): Promise<StepResult> => {
  switch (s.outcome) {
    case 'uploading':
      return upload(ctx, h, tiktokResumeChunk(h.plan!, s.uploadedBytes));
    case 'failed':
      return {
        next: 'refused',
        error: s.error ?? new PlatformError({ kind: 'bad-request', key: 'tiktok_fail_internal' }),
      };
    case 'published':
    case 'inbox': {
      const polls = h.idPolls ?? 0;
      if (!s.postId && !h.privateOnly && s.outcome === 'published' && polls < ID_POLLS) {
        await ctx.save({ state: 'processing', handle: { ...h, idPolls: polls + 1 } });
        return { next: 'again', delayMs: ctx.timing.pollMs };
      }
      return { next: 'published', remoteId: s.postId, url: s.url };
    }
    case 'processing': {
      if (ctx.state !== 'processing') {
        await ctx.save({ state: 'processing', processingSince: ctx.now().toISOString() });
        return { next: 'again', delayMs: ctx.timing.pollMs };
      }
      const minutes = processingOverBudget(ctx, ctx.row.processingSince);
      if (minutes !== null) {
        const error = new PlatformError({
          kind: 'retry-later',
          platform: 'tiktok',
          code: 'processing_timeout',
          key: 'tiktok_publish_failed',
          params: { reason: `kadr.publish.processing_timeout {"minutes":${minutes}}` },
        });
        return { next: 'refused', error };
      }
      return { next: 'again', delayMs: ctx.timing.pollMs };
    }
  }
};

/** Whether an init is stored: TikTok says where the upload stands before anything is sent again. */
export const tiktokStarted = (ctx: StepContext) => {
  const h = ctx.handle as TikTokHandle;
  return Boolean(h.publishId && h.plan);
};

/** Creator info, the gate (with the creator's max duration), a slot, then init and the upload. */
export async function tiktokPublish(ctx: StepContext): Promise<StepResult> {
  const facts = await ctx.facts();
  const creator = await ctx.call((_d, token, call) => publisher(call, ctx).creatorInfo(token));
  const refused = checkTikTokFile(facts, { maxDurationSec: creator.maxVideoPostDurationSec });
  if (refused) throw refused;
  tiktokCaption(ctx.meta); // a caption TikTok would refuse is refused here, before a slot is taken
  pickTikTokPrivacy(creator, tiktokPost(ctx.meta).privacyLevel); // so is a privacy level the creator is not offered
  const taken = await ctx.takeSlot();
  if (taken.until) {
    const reason = new PlatformError({ kind: 'retry-later', platform: 'tiktok', key: 'tiktok_daily_post_cap' });
    return { next: 'wait', until: taken.until, reason };
  }
  const source = await ctx.source();
  const fresh = await init(ctx, source, taken.slot);
  return fresh ? upload(ctx, fresh, 0) : { next: 'again', delayMs: 0 };
}

/** Re-entry: the stored publish id's status first. */
export async function tiktokReconcile(ctx: StepContext): Promise<StepResult> {
  const h = ctx.handle as TikTokHandle;
  return settle(ctx, h, await status(ctx, h, h.plan!.videoSize));
}
