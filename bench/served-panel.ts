import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export type ServedPanel = { url: string; close: () => Promise<void> };

/**
 * The real server of the checkout in `cwd` (bench/panel-server.ts, on that checkout's built dist/) in a child
 * process of its own: the cold-page benches and tools load pages from it.
 */
export async function servePanel(cwd: string): Promise<ServedPanel> {
  const child = spawn(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), resolve('bench/panel-server.ts')], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`panel server in ${cwd} exited (${code})`)));
  });
  return {
    url: (JSON.parse(line) as { url: string }).url,
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

/** What the one-page tools (bench/waterfall.ts, bench/trace-cold.ts) wait for: the page's element once usable. */
export const readySelectorOf = (path: string) =>
  ({
    '/login': 'button:not([disabled])',
    '/users': 'td',
    '/setting': 'form',
    '/api/docs': '.opblock',
  })[path] ?? '[data-testid="empty-list"]';
