import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DbKind } from '../../server/db/index';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { insertUser } from '../helpers/db';

/**
 * A private copy of the built panel. dist/ is shared with everyone working in this checkout, and a
 * `vite build` elsewhere replaces its hashed chunks mid-run (the page then never renders); a copy taken
 * once, checked to be whole, keeps one file's run on one build.
 */
export function snapshotPanel(): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'kadr-panel-'));
    try {
      cpSync(resolve('dist'), dir, { recursive: true });
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
      if (refs.length && refs.every((r) => existsSync(join(dir, r)))) return dir;
    } catch {
      /* a build was rewriting dist: try again */
    }
    rmSync(dir, { recursive: true, force: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
  throw new Error('dist/ is incomplete: run `npx vite build`');
}

/** startTestServer() over a private copy of the panel; the copy goes away with the server. */
export async function startFoundationServer(
  env: Record<string, string> = {},
  kind: DbKind = 'sqlite',
): Promise<TestServer> {
  const panelDir = snapshotPanel();
  const server = await startTestServer(env, { panelDir }, kind);
  const close = server.close;
  return {
    ...server,
    close: async () => {
      await close();
      rmSync(panelDir, { recursive: true, force: true });
    },
  };
}

/** A plain user (role user), straight in the database. */
export async function addPlainUser(server: TestServer, login: string, password: string): Promise<void> {
  await insertUser(server.tdb.db, login, password);
}

/** The foundation tests' plain user: `operator` / `user-pass`. */
export const addOperator = (server: TestServer) => addPlainUser(server, 'operator', 'user-pass');

/** The server and the browser of a describe block's browser tests. */
export type Panel = { readonly server: TestServer; readonly browser: Browser };

/**
 * startFoundationServer() and a browser for the enclosing describe block: started before its tests (then `setUp`
 * seeds the server), both closed after them.
 */
export function foundationPanel(
  options: { env?: Record<string, string>; kind?: DbKind; setUp?: (server: TestServer) => Promise<void> } = {},
): Panel {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startFoundationServer(options.env, options.kind);
    browser = await launchBrowser();
    await options.setUp?.(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(part: T | undefined): T => {
    if (!part) throw new Error('the panel starts in beforeAll: use it inside a test or a hook');
    return part;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
  };
}
