/**
 * A job's progress mark as the Jobs screen reads it. The publish chain marks each step with the post's state, the
 * time of its last write and the bytes sent (`uploading|2026-11-27T11:50:17.492Z|12582912`, PublishWorker.enqueueNext); other
 * kinds leave no mark, or one of their own, shown as it is.
 */
export type JobProgress = { kind: 'post'; state: string; bytesSent: number } | { kind: 'text'; text: string };

/** `state|last write|bytes`: the last write as the row stores it (an ISO instant), or in ms. */
const POST_MARK = /^([a-z_]+)\|(?:\d+|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)\|(\d+)$/;

export function jobProgress(mark: string): JobProgress {
  const post = POST_MARK.exec(mark);
  if (post) return { kind: 'post', state: post[1]!, bytesSent: Number(post[2]) };
  return { kind: 'text', text: mark };
}

/** A worker's id (`host:pid:hex`) with a break opportunity after each separator, so it wraps between its parts. */
export const breakableId = (id: string): string => id.replace(/([:\-./])/g, '$1\u200b');
