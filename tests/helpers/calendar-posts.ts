import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/types';
import { PLATFORMS } from '../../src/contract/platforms';
import { insertRequest } from './db';

const PER_VIDEO = 2; // platforms per video
const VIDEOS_PER_PUBLICATION = 50;
const STATES = ['scheduled', 'scheduled', 'published', 'waiting', 'failed', 'cancelled'];

export type CalendarSeed = {
  /** Users the posts belong to, in turn (a publication each, their profiles split among them). */
  owners: number[];
  posts: number;
  profiles: number;
  /** The posts' due times spread over [start, start + spanMs). */
  start: number;
  spanMs: number;
};

/**
 * Posts for the calendar's benchmarks and tests, straight in the database: publications of 50 videos, each video on two
 * platforms, due times spread evenly over the span, states mixed (scheduled, published, waiting, failed,
 * cancelled), profiles named as operators name them.
 */
export async function seedCalendarPosts(db: Kysely<Database>, o: CalendarSeed): Promise<void> {
  const at = new Date().toISOString();
  const profiles = await db
    .insertInto('accounts')
    .values(
      Array.from({ length: o.profiles }, (_, i) => ({
        userId: o.owners[i % o.owners.length]!,
        createdAt: at,
        comments: `Профіль ${i}`,
        titleChannel: `Канал ${i}`,
      })),
    )
    .returning(['id', 'userId'])
    .execute();
  const videos = o.posts / PER_VIDEO;
  let n = 0;
  for (let p = 0; p < videos / VIDEOS_PER_PUBLICATION; p++) {
    const owner = o.owners[p % o.owners.length]!;
    const own = profiles.filter((a) => a.userId === owner);
    const requestId = await insertRequest(db, owner, `calbench${p}`, { count: VIDEOS_PER_PUBLICATION });
    const pub = await db
      .insertInto('publications')
      .values({ userId: owner, requestId, title: `Публікація ${p}`, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: VIDEOS_PER_PUBLICATION }, (_, i) => {
      const date = new Date(o.start + (((n + i) * 6007 * 60_000) % o.spanMs)).toISOString();
      return {
        userId: owner,
        accountId: own[(n + i) % own.length]!.id,
        createdAt: at,
        status: 'publication',
        idUpload: requestId + '',
        date,
        title: `Шортс ${n + i}`,
        requestId,
        outputIndex: i,
        publicationId: pub.id,
      };
    });
    const added = await db.insertInto('videos').values(rows).returning(['id', 'accountId', 'date']).execute();
    await db
      .insertInto('videoPublishes')
      .values(
        added.flatMap((v, i) =>
          PLATFORMS.slice(0, PER_VIDEO).map((platform) => ({
            videoId: v.id,
            platform,
            accountId: v.accountId,
            state: STATES[(n + i) % STATES.length]!,
            dueAt: v.date!,
            videoVersion: 1,
            createdAt: at,
            updatedAt: at,
          })),
        ),
      )
      .execute();
    n += VIDEOS_PER_PUBLICATION;
  }
}
