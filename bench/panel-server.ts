import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A child process of `npm run bench`: the real server of the checkout it runs in (its working directory: this
 * tree, or the previous release's under .bench/), over that checkout's built panel and a fresh database, via its
 * own startFoundationServer. Prints `{"url": …}` once listening; closes when its standard input ends.
 */
const { startFoundationServer } = await import(pathToFileURL(resolve('tests/e2e/foundation-panel.ts')).href);
const server = await startFoundationServer();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
