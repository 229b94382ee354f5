/**
 * Per-user limits of expensive operations (server/http/user-limits.ts): the kinds, and the 429 message of each,
 * naming what was limited and when it frees (`%{limit}` an hour, again in `%{minutes}` min).
 */
export const LIMIT_KINDS = ['renders', 'publish', 'ai', 'uploads'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

export const LIMIT_MESSAGES: Record<LimitKind, string> = {
  renders: 'kadr.limits.renders',
  publish: 'kadr.limits.publish',
  ai: 'kadr.limits.ai',
  uploads: 'kadr.limits.uploads',
};
