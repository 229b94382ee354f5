import * as z from 'zod/mini';

/** Media retention's messages (i18n keys; docs/retention.md). */
export const RM = {
  /** A video whose file retention removed: refused when published (the field is the video). */
  mediaRemoved: 'kadr.media.errors.media_removed',
  /** A render that finds its request's clip removed by retention. */
  clipRemoved: 'kadr.videos.errors.clip_removed',
} as const;

/**
 * GET /api/media-usage: the space one user's media takes in storage (uploaded clips, rendered videos and
 * backgrounds; what retention removed no longer counts). `unmeasured` objects are stored by an older version
 * and not measured yet (the hourly retention pass measures them).
 */
export const MediaUsageSchema = z.object({
  userId: z.int(),
  login: z.string(),
  bytes: z.int().register(z.globalRegistry, { description: 'Bytes of the objects measured so far' }),
  files: z.int().register(z.globalRegistry, { description: 'Objects stored' }),
  unmeasured: z.int().register(z.globalRegistry, { description: 'Objects whose size is not known yet' }),
});
export type MediaUsage = z.infer<typeof MediaUsageSchema>;

/**
 * A user gets their own figure; an admin every user's. In `zod/mini`: the users list loads it, and that screen
 * keeps to zod's core (tests/e2e/first-load.test.ts).
 */
export const MediaUsageListSchema = z.object({ items: z.array(MediaUsageSchema) });
export type MediaUsageList = z.infer<typeof MediaUsageListSchema>;
