import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthRepository } from '../auth/auth.repository';
import { LIVE_HEARTBEAT_MS, type LiveEvent } from '../../src/contract/live';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import { requireUser } from '../auth/guards';
import type { LiveHub } from './live.hub';
import type { LiveService } from './live.service';

/**
 * The server-sent-events streams of this process. A stream opens with a ticket (POST /api/live/ticket), which
 * opens one stream, once, for its own user: a request that also carries a bearer token of another user is
 * refused. It resumes after `Last-Event-ID` (the header EventSource sends on its own reconnects, or
 * `?lastEventId=` when the panel reconnects with a fresh ticket). The stream follows its session: the hub
 * narrows, widens or ends it when the user's role changes, the user is deleted or the session ends (live.hub.ts).
 * Every LIVE_HEARTBEAT_MS a comment line keeps proxies and the server's idle-connection timeout from closing
 * it, and the session is checked again (a backstop). `closeAll` ends every stream so the server can close.
 */
export class LiveStreams {
  private open = new Set<() => void>();

  constructor(private deps: { live: LiveService; hub: LiveHub; auth: AuthRepository; heartbeatMs?: number }) {}

  get count() {
    return this.open.size;
  }

  async stream(req: FastifyRequest, query: { ticket?: string; lastEventId?: string }, reply: FastifyReply) {
    const claims = await this.deps.live.redeemTicket(query.ticket);
    // EventSource sends no bearer; a caller that sends one must be the ticket's user.
    if (req.headers.authorization !== undefined) {
      await requireUser(req);
      if (req.user.id !== claims.userId) throw new AppError(401, M.unauthorized);
    }
    const user = await this.deps.auth.findSessionUser(claims.sid, claims.userId, new Date().toISOString());
    if (!user) throw new AppError(401, M.unauthorized);
    const header = req.headers['last-event-id'];
    const resume = (typeof header === 'string' && /^\d{1,15}$/.test(header) ? header : undefined) ?? query.lastEventId;

    reply.hijack();
    const res = reply.raw;
    // The head goes out once the stream has joined the hub (or with its first backlog event): a client that
    // sees the stream open receives every event written from then on.
    let headed = false;
    const write = (chunk: string) => {
      if (!headed) {
        headed = true;
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache, no-transform',
          Connection: 'keep-alive',
          // nginx: pass each event on at once instead of buffering the answer.
          'X-Accel-Buffering': 'no',
        });
        res.write('retry: 3000\n\n');
      }
      if (chunk) res.write(chunk);
    };
    const send = (e: LiveEvent) =>
      write(`id: ${e.id}\ndata: ${JSON.stringify({ kind: e.kind, payload: e.payload })}\n\n`);
    let client: Awaited<ReturnType<LiveHub['join']>> | undefined;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(beat);
      this.open.delete(end);
      if (client) this.deps.hub.leave(client);
      write('');
      res.end();
    };
    const beat = setInterval(() => {
      write(': hb\n\n');
      if (client) void this.deps.hub.recheck(client).catch(() => undefined);
    }, this.deps.heartbeatMs ?? LIVE_HEARTBEAT_MS);
    beat.unref();
    this.open.add(end);
    req.raw.once('close', end);
    res.once('close', end);
    try {
      client = await this.deps.hub.join(
        { userId: user.id, sid: claims.sid, admin: user.role === 'admin', send, end },
        resume === undefined ? null : Number(resume),
      );
      if (ended) this.deps.hub.leave(client);
      else write('');
    } catch (err) {
      req.log.warn({ err }, 'live stream could not start');
      end();
    }
  }

  closeAll() {
    for (const end of [...this.open]) end();
  }
}
