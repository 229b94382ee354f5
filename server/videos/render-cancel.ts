/**
 * In-process cancellation of running renders: the worker registers each request it renders, and deleting a
 * request aborts its ffmpeg processes at once. A render in another process notices at its next heartbeat,
 * because the delete also removes the job (server/jobs/runner.ts aborts a handler whose job is gone).
 */
const running = new Map<number, AbortController>();

export const renderCancels = {
  register(requestId: number, ac: AbortController) {
    running.set(requestId, ac);
    return () => {
      if (running.get(requestId) === ac) running.delete(requestId);
    };
  },
  cancel(requestId: number) {
    running.get(requestId)?.abort('cancelled');
  },
};
