import http from 'node:http';
import net from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * An HTTP CONNECT proxy on 127.0.0.1 that lets each tunnel send upstream at most `bytesPerSec` (what the profile's
 * proxy does on a slow line): an upload through it takes seconds, so a test can act while the platform has
 * acknowledged some bytes but not all. Replies come back unthrottled. Closing a client closes its upstream at once.
 */
export interface ThrottledProxy {
  url: string;
  /** Bytes sent upstream so far, over every tunnel. */
  readonly sent: number;
  close(): Promise<void>;
}

class Throttle extends Transform {
  private nextAt = Date.now();
  constructor(
    private bytesPerSec: number,
    private onSent: (n: number) => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const slice = 16 * 1024;
    const push = (from: number) => {
      if (from >= chunk.length) return done();
      const part = chunk.subarray(from, from + slice);
      this.nextAt = Math.max(this.nextAt, Date.now()) + (part.length / this.bytesPerSec) * 1000;
      this.push(part);
      this.onSent(part.length);
      setTimeout(() => push(from + slice), Math.max(0, this.nextAt - Date.now()));
    };
    push(0);
  }
}

export async function startThrottledProxy(bytesPerSec: number): Promise<ThrottledProxy> {
  const sockets = new Set<net.Socket>();
  let sent = 0;
  const server = http.createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    if (!m) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const upstream = net.connect(Number(m[2]), m[1]!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const throttle = new Throttle(bytesPerSec, (n) => (sent += n));
      if (head.length) throttle.write(head);
      upstream.pipe(client);
      client.pipe(throttle).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get sent() {
      return sent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
