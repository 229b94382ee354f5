/**
 * Tiny building blocks for the local platform simulators: a node:http server on 127.0.0.1 with a
 * route table, body parsing, a movable clock, a request log and one-shot fault injection.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON body as a route's precise type, every field optional (the route checks what it reads); {} if none. */
export const jsonBody = <T extends object>(r: SimRequest): Partial<T> =>
  (r.json !== null && typeof r.json === 'object' ? r.json : {}) as Partial<T>;

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The whole body; empty for a `stream` route, whose handler reads `body` instead. */
  raw: Buffer;
  /** A `stream` route's request body, not yet read (uploads: the simulator never holds a whole file). */
  body?: AsyncIterable<Buffer>;
  /** Form fields (x-www-form-urlencoded) or an empty set. */
  form: URLSearchParams;
  /** Parsed JSON body (undefined when absent or not JSON): each route reads it through its own schema. */
  json: unknown;
  /** The bearer token from Authorization, if any. */
  bearer?: string;
}

export interface SimReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type SimHandler = (req: SimRequest) => SimReply | Promise<SimReply>;

export interface SimRoute {
  method: string;
  /** Exact path, or a RegExp tested against the path. */
  path: string | RegExp;
  handler: SimHandler;
  /** The handler reads the body itself from `req.body` (large uploads); `raw`, `json` and `form` stay empty. */
  stream?: boolean;
}

export interface SimFault {
  /** Which requests: a path substring or a RegExp (any when omitted). */
  path?: string | RegExp;
  method?: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
  /** Delay the answer instead of (or before) failing, in ms. */
  delayMs?: number;
}

export interface SimLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

export class SimClock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export function randomToken(prefix: string, bytes = 18): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export interface SimServer {
  url: string;
  port: number;
  log: SimLogEntry[];
  injectFault(f: SimFault): void;
  clearFaults(): void;
  close(): Promise<void>;
}

export async function startSimServer(
  routes: SimRoute[],
  opts: { port?: number; host?: string } = {},
): Promise<SimServer> {
  const log: SimLogEntry[] = [];
  let faults: SimFault[] = [];

  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const method = req.method ?? 'GET';
    const route = routes.find(
      (r) => r.method === method && (typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)),
    );
    const fault = faults.find(
      (f) =>
        (!f.method || f.method === method) &&
        (!f.path || (typeof f.path === 'string' ? url.pathname.includes(f.path) : f.path.test(url.pathname))),
    );
    const streamed = Boolean(route?.stream) && !fault;
    const chunks: Buffer[] = [];
    if (!streamed) for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const ct = String(req.headers['content-type'] ?? '');
    let json: unknown;
    if (/json/i.test(ct) && raw.length) {
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
    }
    const form = /x-www-form-urlencoded/i.test(ct) ? new URLSearchParams(raw.toString('utf8')) : new URLSearchParams();
    const auth = String(req.headers.authorization ?? '');
    const bearer = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    const sreq: SimRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw,
      form,
      json,
      bearer,
      body: streamed ? (req as AsyncIterable<Buffer>) : undefined,
    };

    let reply: SimReply;
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      if (fault.times <= 0) faults = faults.filter((f) => f !== fault);
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      reply = { status: fault.status, body: fault.body, headers: fault.headers };
    } else {
      try {
        reply = route
          ? await route.handler(sreq)
          : { status: 404, body: { error: { code: 404, message: `No route for ${sreq.method} ${sreq.path}` } } };
      } catch (err) {
        reply = { status: 500, body: { error: { code: 500, message: String((err as Error)?.message ?? err) } } };
      }
    }
    log.push({
      method: sreq.method,
      path: sreq.path,
      query: Object.fromEntries(url.searchParams),
      status: reply.status,
    });
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    let payload: string | Buffer = '';
    if (reply.body !== undefined) {
      if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) {
        payload = reply.body;
        headers['content-type'] ??= 'text/html; charset=utf-8';
      } else {
        payload = JSON.stringify(reply.body);
        headers['content-type'] ??= 'application/json; charset=UTF-8';
      }
    }
    res.writeHead(reply.status, headers);
    res.end(payload);
  };
  // A request that breaks off mid-body closes its socket; it never becomes an unhandled rejection.
  const server = http.createServer((req, res) => void answer(req, res).catch((err: Error) => res.destroy(err)));
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    log,
    injectFault: (f) => faults.push({ ...f }),
    clearFaults: () => {
      faults = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A 302 to `redirectUri` with the given query parameters (and an optional fragment). */
export function redirectTo(
  redirectUri: string,
  params: Record<string, string | undefined>,
  fragment?: string,
): SimReply {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return { status: 302, headers: { location: u.href + (fragment ?? '') } };
}

export function htmlError(status: number, text: string): SimReply {
  return { status, body: `<!doctype html><title>Error</title><p>${text.replace(/[<>&]/g, '')}</p>` };
}

/** The controls every simulator offers the tests, with one meaning everywhere. */
export interface SimControls {
  url: string;
  log: SimLogEntry[];
  close(): Promise<void>;
  injectFault(f: SimFault): void;
  clearFaults(): void;
  /** Moves the simulator's clock forward (codes, tokens and grants age with it). */
  advance(ms: number): void;
  /** Every access token issued so far expires now. */
  expireAccessTokens(): void;
  /** Revokes every grant: refreshes are refused and access tokens rejected. */
  revokeAll(): void;
  /** The next consent screen answers error=access_denied (or add sim_deny=1 to the authorize URL). */
  denyNextConsent(): void;
  /** The next consent grants only these scopes (the user unticked the others). */
  grantOnlyNext(scopes: string[]): void;
  /** Number of successful refreshes. */
  readonly refreshCount: number;
}

/** What a simulator keeps for its controls: the clock, the one-shot consent switches and the refresh counter. */
export class SimState {
  readonly clock = new SimClock();
  refreshCount = 0;
  denyNext = false;
  grantOnly: string[] | null = null;

  /** The scopes the next consent grants out of `requested`, or null when it is denied; resets the switches. */
  consent(requested: string[], deny = false): string[] | null {
    const denied = this.denyNext || deny;
    const only = this.grantOnly;
    this.denyNext = false;
    this.grantOnly = null;
    if (denied) return null;
    return only ? requested.filter((s) => only.includes(s)) : requested;
  }
}

/**
 * Gives `target` (a simulator's own live fields: its channel, user, …) the shared controls. `tokens` are the
 * access tokens issued so far and `revoke` marks every grant revoked.
 */
export function withSimControls<T extends object>(
  target: T,
  server: SimServer,
  state: SimState,
  hooks: { tokens: () => Iterable<{ expiresAt: number }>; revoke: () => void },
): T & SimControls {
  const controls: SimControls = {
    url: server.url,
    log: server.log,
    close: server.close,
    injectFault: server.injectFault,
    clearFaults: server.clearFaults,
    advance: (ms) => state.clock.advance(ms),
    expireAccessTokens: () => {
      for (const t of hooks.tokens()) t.expiresAt = Math.min(t.expiresAt, state.clock.now() - 1);
    },
    revokeAll: hooks.revoke,
    denyNextConsent: () => {
      state.denyNext = true;
    },
    grantOnlyNext: (scopes) => {
      state.grantOnly = scopes;
    },
    get refreshCount() {
      return state.refreshCount;
    },
  };
  return Object.defineProperties(target, Object.getOwnPropertyDescriptors(controls)) as T & SimControls;
}
