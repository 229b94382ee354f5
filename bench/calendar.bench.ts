import { firstOfDays, rangeDays } from '../server/calendar/calendar-days';
import { CalendarRepository } from '../server/calendar/calendar.repository';
import { CALENDAR_DAY_POSTS } from '../src/contract/calendar';
import type { DbKind } from '../server/db/index';
import { insertUser, makeTestDb, postgresAvailable, type TestDb } from '../tests/helpers/db';
import { seedCalendarPosts } from '../tests/helpers/calendar-posts';
import { benchApp, BENCH_PASSWORD } from './bench-app';
import { summary } from './http-load';

const POSTS = 100_000;
const PROFILES = 200;
const YEAR_MS = 365 * 24 * 3600_000;
const START = Date.UTC(2031, 0, 1);
const RUNS = 200;

/**
 * Issue 21's target: the calendar's range query p99 ≤ 50 ms with 100,000 posts, on SQLite and PostgreSQL. Posts
 * spread over a year across 200 profiles of two users; a month and a week, as an admin (everyone's) and as a
 * user (their half), measured at the repository (the queries) and through the API (app.inject: queries, zod answer,
 * JSON). A month is the month view's answer (GET /api/calendar/days: per day its first posts and its count, days
 * cut in UTC) and one day's full list (the "+N more" popover: GET /api/calendar/posts with drawnStart/drawnEnd); a
 * week is the full answer (GET /api/calendar/posts), and so is `full`, a month's every post (what the month view
 * read before), measured in the same run to compare. Figures are printed, never asserted.
 */
export async function calendarBench(): Promise<void> {
  await benchOn('sqlite');
  if (await postgresAvailable()) await benchOn('postgres');
  else console.log('calendar  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

async function seed(tdb: TestDb): Promise<{ admin: number; user: number }> {
  const db = tdb.db;
  const users = [
    await insertUser(db, 'calbenchadmin', BENCH_PASSWORD, 'admin'),
    await insertUser(db, 'calbenchuser', BENCH_PASSWORD),
    await insertUser(db, 'calbenchother', BENCH_PASSWORD),
  ];
  const owners = [users[1]!, users[2]!];
  await seedCalendarPosts(db, { owners, posts: POSTS, profiles: PROFILES, start: START, spanMs: YEAR_MS });
  return { admin: users[0]!, user: users[1]! };
}

async function benchOn(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  const { app, analyze, bearer: token } = await benchApp(tdb, kind);
  const name = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const ids = await seed(tdb);
    await analyze();
    const who = {
      admin: { id: ids.admin, scope: null, auth: await token('calbenchadmin') },
      user: { id: ids.user, scope: ids.user, auth: await token('calbenchuser') },
    };
    const repo = new CalendarRepository(tdb.db);
    const ranges: Array<[string, number]> = [
      ['month', 31],
      ['day', 31],
      ['week', 7],
      // The month's full answer (what the month view read before its days answer), for comparison in the same run.
      ['full', 31],
    ];
    console.log(`calendar  ${POSTS} posts over a year, ${PROFILES} profiles, ${name}`);
    for (const [role, w] of Object.entries(who)) {
      for (const [label, days] of ranges) {
        const range = (i: number) => {
          const start = START + ((i * 13) % (365 - days)) * 24 * 3600_000;
          return { start: new Date(start).toISOString(), end: new Date(start + days * 24 * 3600_000).toISOString() };
        };
        // The popover's day: the month's 11th (UTC).
        const dayOf = (r: { start: string }) => {
          const s = Date.parse(r.start) + 10 * 24 * 3600_000;
          return { drawnStart: new Date(s).toISOString(), drawnEnd: new Date(s + 24 * 3600_000).toISOString() };
        };
        const query: number[] = [];
        const api: number[] = [];
        let found = 0;
        for (let i = 0; i < RUNS + 20; i++) {
          const r = range(i);
          const q = { ...r, platform: [], state: [] };
          let t = performance.now();
          if (label === 'month') {
            const posts = await repo.drawnQuery(w.scope, q).execute();
            const heads = firstOfDays(posts, rangeDays(r.start, r.end, 'UTC').bounds, CALENDAR_DAY_POSTS);
            await repo.byIds(heads.flatMap((h) => h.ids));
            found = heads.reduce((n, h) => n + h.count, 0);
          } else found = (await repo.posts(w.scope, label === 'day' ? { ...q, ...dayOf(r) } : q, 10_001)).length;
          if (i >= 20) query.push(performance.now() - t);
          const url =
            label === 'month'
              ? `/api/calendar/days?start=${r.start}&end=${r.end}&zone=UTC`
              : label === 'day'
                ? `/api/calendar/posts?start=${r.start}&end=${r.end}&drawnStart=${dayOf(r).drawnStart}&drawnEnd=${dayOf(r).drawnEnd}`
                : `/api/calendar/posts?start=${r.start}&end=${r.end}`;
          t = performance.now();
          const res = await app.inject({ method: 'GET', url, headers: { authorization: w.auth } });
          if (i >= 20) api.push(performance.now() - t);
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        }
        const q = summary(query, 1);
        const a = summary(api, 1);
        console.log(
          `calendar  ${role.padEnd(5)} ${label.padEnd(5)} ~${String(found).padStart(5)} posts  query p50 ${q.p50.toFixed(2)} ms p99 ${q.p99.toFixed(2)} ms (target ≤ 50: ${q.p99 <= 50 ? 'ok' : 'MISSED'})  GET p50 ${a.p50.toFixed(2)} ms p99 ${a.p99.toFixed(2)} ms`,
        );
      }
    }
  } finally {
    await app.close();
    await tdb.drop();
  }
}
