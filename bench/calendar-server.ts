import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seedCalendarPosts } from '../tests/helpers/calendar-posts';
import { userByLogin } from '../tests/helpers/db';

/**
 * A child process of the calendar-draw bench: the real server of the checkout it runs in (its working directory:
 * this tree, or an earlier build's under .bench/) over that checkout's built panel and a fresh database, with
 * `CALENDAR_POSTS` posts of this month (UTC) for the admin on 40 profiles. Prints `{"url": …}` once ready; closes
 * when its standard input ends.
 */
const DAY_MS = 24 * 3600_000;
const { startFoundationServer } = await import(pathToFileURL(resolve('tests/e2e/foundation-panel.ts')).href);
const server = await startFoundationServer();
const admin = await userByLogin(server.tdb.db, 'admin');
const now = new Date();
await seedCalendarPosts(server.tdb.db, {
  owners: [admin.id],
  posts: Number(process.env.CALENDAR_POSTS ?? 5_000),
  profiles: 40,
  start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
  spanMs: 28 * DAY_MS,
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
