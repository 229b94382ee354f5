import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 that nothing listens on now (the system picks it), for a server that must know its own
 * address before it is built (its configuration, frozen once loaded, names it).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const addr = probe.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
