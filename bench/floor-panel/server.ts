import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { ServedPanel } from '../served-panel';

const DIST = resolve('.bench/floor-panel');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css' };
const json = (body: unknown) => JSON.stringify(body);

/**
 * The floor app (bench/floor-panel, built into .bench/floor-panel) behind a bare `node:http` server: its files, the
 * index page for every other address, a sign-in that always succeeds and one page of one user.
 */
export async function serveFloorPanel(): Promise<ServedPanel> {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('floor app not built: npx vite build --config bench/floor-panel/vite.config.ts');
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://floor').pathname;
    if (path === '/api/auth/login') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(json({ user: { id: 1, login: 'admin' }, accessToken: 'floor', refreshToken: 'floor' }));
    }
    if (path === '/api/users') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(json({ data: [{ id: 1, login: 'admin', role: 'admin' }], total: 1 }));
    }
    const file = join(DIST, normalize(path));
    const found =
      file.startsWith(DIST) && existsSync(file) && statSync(file).isFile() ? file : join(DIST, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(found)] ?? 'application/octet-stream' });
    createReadStream(found).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
