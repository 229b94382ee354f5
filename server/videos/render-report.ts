import type { RequestLive } from '../../src/contract/live';
import type { EventBus } from '../events/event-bus';
import type { DomainEvent } from '../events/events';
import type { Db } from '../db/index';
import type { RenderPatch, VideosRepository } from './videos.repository';

/** What the render worker writes through: the requests' repository and the event bus. */
export type RenderWrites = { repo: VideosRepository; events: EventBus };

/**
 * The render event of a change: finished or failed when the change says so, else the render moved (it started,
 * went a percent further, recorded an output). It carries the request as the request list shows it.
 */
async function renderEvent(w: RenderWrites, trx: Db, requestId: number, patch: RenderPatch): Promise<DomainEvent> {
  const r = (await w.repo.get(null, { id: requestId }, trx))!;
  const payload: RequestLive = {
    id: r.id,
    idUpload: r.idUpload,
    status: r.status,
    progress: r.status === 'success' ? 100 : Number(r.progress),
    done: Number(r.done),
    count: Number(r.count),
    error: r.error,
  };
  const name =
    patch.status === 'success' ? 'render.finished' : patch.status === 'error' ? 'render.failed' : 'render.changed';
  return { name, userId: r.userId, payload };
}

/** Writes the request's state and, in the same transaction, its render event; false when the request is gone. */
export function saveRenderState(w: RenderWrites, requestId: number, patch: RenderPatch): Promise<boolean> {
  return w.events.transaction(async (trx) => {
    if (!(await w.repo.setState(trx, requestId, patch))) return false;
    await w.events.record(trx, await renderEvent(w, trx, requestId, patch));
    return true;
  });
}

/**
 * Records a finished output and, in the same transaction, the render's event (one more done); false when the
 * request is gone (deleted while the output rendered).
 */
export function saveRenderOutput(
  w: RenderWrites,
  req: { id: number; userId: number; idUpload: string },
  index: number,
  stored: { key: string; size: number },
): Promise<boolean> {
  return w.events.transaction(async (trx) => {
    if (!(await w.repo.recordOutput(trx, req, index, stored))) return false;
    await w.events.record(trx, await renderEvent(w, trx, req.id, {}));
    return true;
  });
}
