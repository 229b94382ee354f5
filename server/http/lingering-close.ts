import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** How much of a refused body the server still reads before it closes (config.ts: LINGER_MAX_BYTES, LINGER_TIMEOUT_MS). */
export type LingerLimits = {
  /** Body bytes read and thrown away after an early answer; past this the connection is cut. */
  maxBytes: number;
  /** How long after an early answer the rest of the body may take; past this the connection is cut. */
  timeoutMs: number;
};

/** Whether the request announced a body that has not been read to its end. */
export const bodyLeftUnread = (req: FastifyRequest) =>
  !req.raw.complete &&
  (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined);

/**
 * Lingering close, as nginx and Go's server do it. An answer sent before the request's body was read (a 401 of
 * the auth guard, a 404, a 413 of the body limit, a refused upload, a 429) carries `Connection: close`, and the
 * server then reads and throws away the rest of the body before it closes. Closing a socket with unread bytes
 * makes the kernel send a reset instead of a FIN, and a client still writing (fetch/undici, curl, a script that
 * sends its whole body before reading) gets EPIPE/ECONNRESET instead of the answer, which the reset may even
 * take out of its receive buffer. The reading is bounded: past `maxBytes` or `timeoutMs` the connection is cut.
 * The body idle timeout (slow-clients.ts) still applies while it lingers.
 */
export function installLingeringClose(app: FastifyInstance, limits: LingerLimits) {
  const lingering = new Set<Socket>();
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (bodyLeftUnread(req)) {
      reply.header('connection', 'close');
      const socket = req.raw.socket;
      // app.inject's socket is no real connection: nothing to linger on.
      if (socket instanceof Socket && !socket.destroyed) linger(req.raw, socket, limits, lingering, req.log);
    }
    done(null, payload);
  });
  // Shutting down does not wait for a client that is still sending a refused body.
  app.addHook('preClose', (done) => {
    for (const socket of lingering) socket.destroy();
    done();
  });
}

const armed = new WeakSet<Socket>();

/**
 * Reads the rest of `req`'s body into nothing. Node closes a `Connection: close` socket through
 * `socket.destroySoon()` once the answer is written (http server, resOnFinish); that call is held back
 * until the body has been read, then made.
 */
function linger(
  req: IncomingMessage,
  socket: Socket,
  limits: LingerLimits,
  lingering: Set<Socket>,
  log: FastifyBaseLogger,
) {
  if (armed.has(socket)) return;
  armed.add(socket);
  lingering.add(socket);
  let answered = false;
  let discarded = 0;

  const restore = () => {
    clearTimeout(timer);
    lingering.delete(socket);
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    socket.removeListener('close', restore);
    // The instance's own property goes, the prototype's destroySoon is back.
    delete (socket as Partial<Socket>).destroySoon;
  };
  const cut = (reason: string) => {
    restore();
    log.info({ reason, discarded }, 'lingering close: connection cut before the refused body ended');
    socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) cut('bytes');
  };
  // The whole body has arrived: close now if the answer is out, else let Node close when it is.
  const onEnd = () => {
    restore();
    if (answered) socket.destroySoon();
  };
  const timer = setTimeout(() => cut('time'), limits.timeoutMs);
  timer.unref();

  socket.destroySoon = () => {
    answered = true;
  };
  socket.once('close', restore);
  // Whoever was reading the body (a multipart parser, the JSON parser) is done: nothing reads it but this now.
  req.unpipe();
  req.removeAllListeners('data');
  req.on('data', onData);
  req.once('end', onEnd);
  req.resume();
}
