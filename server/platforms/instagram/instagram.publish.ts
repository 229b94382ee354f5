/**
 * Instagram's publish steps (the design in server/publishing/publish.worker.ts): gate → slot (ours and the platform's) → container from
 * an absolute signed link (handle stored) → container polled within the budget → 'publishing' stored → media_publish
 * (the public step) → permalink. Re-entry in 'publishing' or 'reconcile' asks `reconcile` and never publishes blindly.
 */
import { processingOverBudget, type PlatformCall, type StepContext, type StepResult } from '../publish-step';
import { instagramPost } from '../publish-types';
import { PlatformError, isPlatformError } from '../types';
import { checkInstagramFile } from './instagram.preflight';
import {
  InstagramPublisher,
  buildInstagramCaption,
  isOutcomeUnknown,
  type InstagramMedia,
} from './instagram.publisher';

type InstagramHandle = {
  containerId?: string;
  caption?: string;
  /** When media_publish was first called (reconcile looks for the post since a little before). */
  publishAt?: string;
  /** Containers made so far (a retryable processing error makes a new one, at most MAX_CONTAINERS). */
  containers?: number;
};

const MAX_CONTAINERS = 3;
const RECONCILE_SLACK_MS = 10 * 60_000;

const publisher = ({ http, settings }: PlatformCall) => new InstagramPublisher({ http, baseUrls: settings.baseUrls });

/** A new container from the file's public link; its id stored before anything else. */
const container = async (ctx: StepContext, h: InstagramHandle): Promise<StepResult> => {
  const made = (h.containers ?? 0) + 1;
  const caption = h.caption ?? buildInstagramCaption(ctx.meta);
  const videoUrl = ctx.publicLink();
  const post = instagramPost(ctx.meta);
  const { containerId } = await ctx.call((_d, token, call) =>
    publisher(call).createContainer(token, call.tokens.platformUserId, {
      videoUrl,
      caption,
      shareToFeed: post.shareToFeed ?? true,
      thumbOffsetMs: post.thumbOffsetMs,
    }),
  );
  const handle = { containerId, caption, containers: made, publishAt: undefined };
  await ctx.save({ state: 'processing', processingSince: ctx.now().toISOString(), handle });
  return { next: 'again', delayMs: ctx.timing.containerPollMs };
};

/** media_publish, with 'publishing' recorded first: a crash or unknown outcome after it is reconciled. */
const publish = async (ctx: StepContext, h: InstagramHandle): Promise<StepResult> => {
  const publishAt = h.publishAt ?? ctx.now().toISOString();
  if (!(await ctx.save({ state: 'publishing', handle: { ...h, publishAt } }))) return { next: 'again', delayMs: 0 };
  let mediaId: string;
  try {
    ({ mediaId } = await ctx.call((_d, token, call) =>
      publisher(call).publish(token, call.tokens.platformUserId, h.containerId!),
    ));
  } catch (e) {
    if (isOutcomeUnknown(e) || !isPlatformError(e) || e.kind === 'retry-later' || e.kind === 'proxy') {
      await ctx.save({ state: 'reconcile' });
    }
    throw e;
  }
  return live(ctx, mediaId);
};

const live = async (ctx: StepContext, mediaId: string, known?: InstagramMedia): Promise<StepResult> => {
  const media = known ?? (await ctx.call((_d, token, call) => publisher(call).media(token, mediaId)).catch(() => null));
  return { next: 'published', remoteId: mediaId, url: media?.permalink || null };
};

const poll = async (ctx: StepContext, h: InstagramHandle): Promise<StepResult> => {
  const s = await ctx.call((_d, token, call) => publisher(call).containerStatus(token, h.containerId!));
  switch (s.code) {
    case 'FINISHED':
      return publish(ctx, h);
    case 'PUBLISHED':
      return reconcile(ctx, h);
    case 'EXPIRED':
      return container(ctx, h);
    case 'ERROR':
      if (s.error.kind === 'retry-later' && s.error.code !== '2207027' && (h.containers ?? 1) < MAX_CONTAINERS) {
        return container(ctx, h);
      }
      if (s.error.code === '2207027') return { next: 'again', delayMs: ctx.timing.containerPollMs };
      return { next: 'refused', error: s.error };
    case 'IN_PROGRESS': {
      const minutes = processingOverBudget(ctx, ctx.row.processingSince);
      if (minutes === null) return { next: 'again', delayMs: ctx.timing.containerPollMs };
      const error = new PlatformError({
        kind: 'retry-later',
        platform: 'instagram',
        code: 'processing_timeout',
        key: 'instagram_processing_timeout',
        params: { minutes },
      });
      return { next: 'refused', error };
    }
  }
};

/** After an unknown outcome of media_publish: Instagram says what happened; publish again only when it is safe. */
const reconcile = async (ctx: StepContext, h: InstagramHandle): Promise<StepResult> => {
  const since = new Date(new Date(h.publishAt ?? ctx.now().toISOString()).getTime() - RECONCILE_SLACK_MS);
  const r = await ctx.call((_d, token, call) =>
    publisher(call).reconcile(token, call.tokens.platformUserId, {
      containerId: h.containerId!,
      caption: h.caption!,
      since,
    }),
  );
  switch (r.state) {
    case 'published':
      return live(ctx, r.media.id, r.media);
    case 'published-unlisted':
      return { next: 'again', delayMs: ctx.timing.containerPollMs };
    case 'ready':
      return publish(ctx, h);
    case 'processing':
      await ctx.save({ state: 'processing' });
      return { next: 'again', delayMs: ctx.timing.containerPollMs };
    case 'expired':
      return container(ctx, h);
    case 'failed':
      return { next: 'refused', error: r.error };
  }
};

/** Whether a container is stored: it is polled, or after media_publish reconciled. */
export const instagramStarted = (ctx: StepContext) => Boolean((ctx.handle as InstagramHandle).containerId);

/** The gate, a slot (ours and the platform's), then a container from the file's public link. */
export async function instagramPublish(ctx: StepContext): Promise<StepResult> {
  const h = ctx.handle as InstagramHandle;
  const refused = checkInstagramFile(await ctx.facts());
  if (refused) throw refused;
  buildInstagramCaption(ctx.meta); // a caption Instagram would refuse is refused before a slot is taken
  const taken = await ctx.takeSlot();
  const reason = new PlatformError({ kind: 'retry-later', platform: 'instagram', key: 'instagram_publish_limit' });
  if (taken.until) return { next: 'wait', until: taken.until, reason };
  try {
    await ctx.call((_d, token, call) => publisher(call).ensurePublishingSlot(token, call.tokens.platformUserId));
    return await container(ctx, h);
  } catch (e) {
    await ctx.giveBack(taken.slot); // no container, no post
    throw e;
  }
}

/** A stored container: polled; in 'publishing' or 'reconcile' Instagram says what happened first. */
export async function instagramReconcile(ctx: StepContext): Promise<StepResult> {
  const h = ctx.handle as InstagramHandle;
  if (ctx.state === 'publishing' || ctx.state === 'reconcile') return reconcile(ctx, h);
  return poll(ctx, h);
}
