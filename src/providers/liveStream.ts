import { API, withQuery } from '../contract/endpoints';
import type { LiveKind } from '../contract/live';
import { contract } from './contract';

export type LiveMessage = { id: number; kind: LiveKind; payload: Record<string, unknown> };

export type LiveHandlers = {
  /** A fresh ticket for the stream (the dataProvider's liveTicket: an authenticated POST). */
  ticket: () => Promise<string>;
  onMessage: (m: LiveMessage) => void;
  /** The stream is (re)open; `resumed` after a break (what was missed has been replayed). */
  onOpen?: (resumed: boolean) => void;
};

/** Waits between reconnects: doubling from 1 s to 30 s, with jitter; tests may shorten them. */
export const liveBackoff = { firstMs: 1000, maxMs: 30_000 };

/**
 * One server-sent-events connection for this tab: asks for a ticket (an authenticated POST, so an expired
 * access token is refreshed as for any call), opens the live events stream, and on any failure closes it and
 * reconnects with a fresh ticket after a backoff, resuming after the last event id it received. `stop` ends it
 * for good (logout, the layout unmounting).
 */
export function startLive(h: LiveHandlers): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let lastId = 0;
  let failures = 0;
  let everOpen = false;

  const retry = () => {
    source?.close();
    source = null;
    if (stopped) return;
    const wait = Math.min(liveBackoff.maxMs, liveBackoff.firstMs * 2 ** failures++);
    timer = setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
  };

  const connect = async () => {
    if (stopped) return;
    let ticket: string;
    let data: Awaited<ReturnType<typeof contract.live>>['LiveDataSchema'];
    try {
      [ticket, data] = await Promise.all([h.ticket(), contract.live().then((c) => c.LiveDataSchema)]);
    } catch {
      return retry();
    }
    if (stopped) return;
    const es = new EventSource(withQuery(API.live.events, { ticket, lastEventId: lastId || undefined }));
    source = es;
    es.onopen = () => {
      failures = 0;
      h.onOpen?.(everOpen);
      everOpen = true;
    };
    es.onmessage = (e) => {
      const id = Number(e.lastEventId);
      if (id) lastId = id;
      let message: unknown;
      try {
        message = JSON.parse(e.data);
      } catch {
        return; // not ours
      }
      const parsed = data.safeParse(message);
      if (parsed.success) h.onMessage({ id, ...parsed.data });
    };
    // EventSource would retry on its own with the same (soon expired) ticket: reconnect with a fresh one.
    es.onerror = () => {
      if (source === es) retry();
    };
  };

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
}
