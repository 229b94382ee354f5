import { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/** How long the server waits for a slow client (config.ts: HEADERS_TIMEOUT_MS, BODY_IDLE_TIMEOUT_MS, …). */
export type ClientTimeouts = {
  /** The request line and headers must arrive within this. */
  headersMs: number;
  /** A body that stops flowing for this long (while the server is ready to read) closes the connection. */
  bodyIdleMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** Backstop: a connection with no traffic at all either way for this long is closed (long renders included). */
  connectionIdleMs: number;
};

/**
 * Fastify/Node server options: no limit on a whole request (a slow but moving 1 GB upload must finish; Node's
 * own default would cut it at 5 minutes), headers capped, idle keep-alive and idle sockets closed.
 */
export function serverTimeoutOptions(t: ClientTimeouts): Partial<FastifyServerOptions> {
  return {
    requestTimeout: 0,
    connectionTimeout: t.connectionIdleMs,
    keepAliveTimeout: t.keepAliveMs,
    // Node checks the headers deadline every connectionsCheckingInterval (30 s by default).
    http: {
      headersTimeout: t.headersMs,
      requestTimeout: 0,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, t.headersMs / 4)),
    },
  } as Partial<FastifyServerOptions>;
}

/**
 * A request body that stops flowing is cut off: while a body is unread and the server is waiting for it (the
 * socket is not paused by our own back-pressure), the socket must bring new bytes within `bodyIdleMs`, else the
 * connection is destroyed. It watches the socket's byte count, so it never takes data from the body stream.
 */
export function installBodyIdleTimeout(app: FastifyInstance, bodyIdleMs: number) {
  const tickMs = Math.max(10, Math.floor(bodyIdleMs / 4));
  app.addHook('onRequest', (req, _reply, done) => {
    const raw = req.raw;
    const socket = raw.socket;
    // Only a request with a body can stall it, and only on a real connection (app.inject's socket has no flow).
    const hasBody = raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete || !(socket instanceof Socket)) return done();
    let lastBytes = socket.bytesRead;
    let lastActive = Date.now();
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const now = Date.now();
      if (socket.bytesRead !== lastBytes || socket.isPaused()) {
        lastBytes = socket.bytesRead;
        lastActive = now;
        return;
      }
      if (now - lastActive < bodyIdleMs) return;
      clearInterval(timer);
      req.log.info({ bodyIdleMs }, 'request body stalled: connection closed');
      socket.destroy();
    }, tickMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
