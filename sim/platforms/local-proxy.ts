/**
 * A minimal forward proxy on 127.0.0.1 and a free port, for the tests and for `SIMULATORS=on` (every profile
 * needs a proxy, and every platform call goes through it). One port speaks both:
 * - HTTP: CONNECT tunnels and absolute-URI forwarding (`GET http://host/path HTTP/1.1`);
 * - SOCKS5 (detected by the first byte 0x05): CONNECT with no auth or username/password.
 * Optional credentials are enforced on both (407 / SOCKS auth failure). Every request is recorded.
 */
import http from 'node:http';
import net from 'node:net';

export interface ProxyRecord {
  kind: 'connect' | 'forward' | 'socks5';
  /** host:port of the destination. */
  target: string;
  method?: string;
  url?: string;
  /** Whether the request was allowed (credentials ok). */
  allowed: boolean;
}

export interface LocalProxy {
  /** http://[user:pass@]127.0.0.1:port */
  url: string;
  /** socks5://[user:pass@]127.0.0.1:port (same port) */
  socksUrl: string;
  port: number;
  records: ProxyRecord[];
  /** Number of allowed requests/tunnels. */
  readonly count: number;
  reset(): void;
  close(): Promise<void>;
}

export interface LocalProxyOptions {
  username?: string;
  password?: string;
}

export async function startLocalProxy(opts: LocalProxyOptions = {}): Promise<LocalProxy> {
  const records: ProxyRecord[] = [];
  const sockets = new Set<net.Socket>();
  const needAuth = opts.username !== undefined;
  const expectedBasic = needAuth
    ? 'Basic ' + Buffer.from(`${opts.username}:${opts.password ?? ''}`).toString('base64')
    : '';

  const httpServer = http.createServer((req, res) => {
    const allowed = !needAuth || req.headers['proxy-authorization'] === expectedBasic;
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI required');
      return;
    }
    records.push({ kind: 'forward', target: target.host, method: req.method, url: target.href, allowed });
    if (!allowed) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  httpServer.on('connect', (req, clientSocket: net.Socket, head: Buffer) => {
    const allowed = !needAuth || req.headers['proxy-authorization'] === expectedBasic;
    const targetStr = req.url ?? '';
    records.push({ kind: 'connect', target: targetStr, method: 'CONNECT', allowed });
    if (!allowed) {
      clientSocket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(targetStr);
    if (!m) {
      clientSocket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(m[2]), m[1]!, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    clientSocket.on('error', () => upstream.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });

  function handleSocks(socket: net.Socket, first: Buffer) {
    let buf = first;
    let stage: 'greeting' | 'auth' | 'request' | 'done' = 'greeting';
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      step();
    };
    const fail = () => {
      socket.removeListener('data', onData);
      socket.destroy();
    };
    const step = () => {
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        const methods = [...buf.subarray(2, 2 + buf[1]!)];
        buf = buf.subarray(2 + buf[1]!);
        const method = needAuth ? 0x02 : 0x00;
        if (!methods.includes(method)) {
          socket.end(Buffer.from([0x05, 0xff]));
          return;
        }
        socket.write(Buffer.from([0x05, method]));
        stage = needAuth ? 'auth' : 'request';
      }
      if (stage === 'auth') {
        if (buf.length < 2) return;
        const ulen = buf[1]!;
        if (buf.length < 2 + ulen + 1) return;
        const plen = buf[2 + ulen]!;
        if (buf.length < 3 + ulen + plen) return;
        const user = buf.subarray(2, 2 + ulen).toString();
        const pass = buf.subarray(3 + ulen, 3 + ulen + plen).toString();
        buf = buf.subarray(3 + ulen + plen);
        const ok = user === opts.username && pass === (opts.password ?? '');
        socket.write(Buffer.from([0x01, ok ? 0x00 : 0x01]));
        if (!ok) {
          records.push({ kind: 'socks5', target: '', allowed: false });
          socket.end();
          return;
        }
        stage = 'request';
      }
      if (stage === 'request') {
        if (buf.length < 5) return;
        const atyp = buf[3]!;
        let host: string;
        let off: number;
        if (atyp === 0x01) {
          if (buf.length < 10) return;
          host = [...buf.subarray(4, 8)].join('.');
          off = 8;
        } else if (atyp === 0x03) {
          const len = buf[4]!;
          if (buf.length < 5 + len + 2) return;
          host = buf.subarray(5, 5 + len).toString();
          off = 5 + len;
        } else if (atyp === 0x04) {
          if (buf.length < 22) return;
          const parts: string[] = [];
          for (let i = 0; i < 16; i += 2) parts.push(buf.readUInt16BE(4 + i).toString(16));
          host = parts.join(':');
          off = 20;
        } else return fail();
        const port = buf.readUInt16BE(off);
        const rest = buf.subarray(off + 2);
        stage = 'done';
        socket.removeListener('data', onData);
        records.push({ kind: 'socks5', target: `${host}:${port}`, allowed: true });
        const upstream = net.connect(port, host, () => {
          socket.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
          if (rest.length) upstream.write(rest);
          upstream.pipe(socket);
          socket.pipe(upstream);
        });
        upstream.on('error', () => socket.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0])));
        socket.on('error', () => upstream.destroy());
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
      }
    };
    socket.on('data', onData);
    step();
  }

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x05) {
        handleSocks(socket, first);
      } else {
        socket.pause();
        socket.unshift(first);
        httpServer.emit('connection', socket);
        socket.resume();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const auth = needAuth ? `${encodeURIComponent(opts.username!)}:${encodeURIComponent(opts.password ?? '')}@` : '';
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    socksUrl: `socks5://${auth}127.0.0.1:${port}`,
    port,
    records,
    get count() {
      return records.filter((r) => r.allowed).length;
    },
    reset() {
      records.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface DeadAddress {
  /** A 127.0.0.1 port nothing listens on: connecting to it is refused. */
  port: number;
  close(): Promise<void>;
}

/**
 * A 127.0.0.1 port where a connection is refused, held for as long as needed: the port is the local end of a
 * live connection to a throw-away listener, so no other listener is handed it until `close()`.
 */
export async function holdDeadPort(): Promise<DeadAddress> {
  const sockets = new Set<net.Socket>();
  const keep = (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => {});
  };
  const listener = net.createServer(keep);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const client = net.connect((listener.address() as net.AddressInfo).port, '127.0.0.1');
  keep(client);
  await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('error', reject));
  return {
    port: client.localPort!,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        listener.close(() => resolve());
      }),
  };
}
