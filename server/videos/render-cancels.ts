/**
 * In-process cancellation of running renders, one per process (the composition root holds it): the worker
 * registers each request it renders, and deleting a request aborts its ffmpeg processes at once. A render in
 * another process notices at its next heartbeat, because the delete also removes the job (server/jobs/runner.ts
 * aborts a handler whose job is gone).
 */
export class RenderCancels {
  private running = new Map<number, AbortController>();

  /** Registers a render; answers how to unregister it. */
  register(requestId: number, ac: AbortController): () => void {
    this.running.set(requestId, ac);
    return () => {
      if (this.running.get(requestId) === ac) this.running.delete(requestId);
    };
  }

  cancel(requestId: number) {
    this.running.get(requestId)?.abort('cancelled');
  }
}
