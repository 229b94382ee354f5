import { createSealer } from '../server/crypto/seal';
import type { Db } from '../server/db/index';
import { PLATFORMS } from '../src/contract/platforms';
import { connectedTokens, setPlatformStates } from '../tests/helpers/connected-tokens';
import { insertUser } from '../tests/helpers/db';
import { seedFinishedRequest } from '../tests/helpers/finished-request';
import { BENCH_PASSWORD } from './bench-app';

const HEADER = 'video;profile;group;platforms;title;description;tags;date;repeat';
const DAY_MS = 24 * 3600_000;
/** Rendered videos per create-video request (a row's video joins its request's publication, or makes it). */
const PER_REQUEST = 10;

/** An operator's profiles as the import names them (by their name in the panel: the profile's comment). */
export type ImportSeed = { userId: number; profiles: { id: number; name: string }[] };

/**
 * The import benchmarks' operator: `login` (a new user signing in with BENCH_PASSWORD, or an existing user's id)
 * with `count` profiles named in Ukrainian (numbered from `from`), each connected to all three platforms (tokens
 * sealed with `appKey`).
 */
export async function seedImportProfiles(
  db: Db,
  user: { login: string } | { id: number },
  count: number,
  appKey: string,
  from = 1,
): Promise<ImportSeed> {
  const at = new Date().toISOString();
  const userId = 'id' in user ? user.id : await insertUser(db, user.login, BENCH_PASSWORD);
  const profiles = await db
    .insertInto('accounts')
    .values(
      Array.from({ length: count }, (_, i) => ({
        userId,
        createdAt: at,
        comments: `Кухня бабусі ${from + i}`,
        titleChannel: `Канал ${from + i}`,
      })),
    )
    .returning(['id', 'comments'])
    .execute();
  const tokensSealed = connectedTokens(createSealer(appKey));
  await setPlatformStates(
    db,
    profiles.flatMap((p) => PLATFORMS.map((platform) => ({ accountId: p.id, platform, tokensSealed, active: true }))),
  );
  return { userId, profiles: profiles.map((p) => ({ id: p.id, name: p.comments! })) };
}

/**
 * `rows` fresh rendered videos of the operator (PER_REQUEST a request) and the file naming them, as an operator
 * writes it in a spreadsheet: UTF-8 with a BOM, `;`, CRLF, Cyrillic profile names, titles (one with a quoted
 * `;`), descriptions and tags, two platforms a row; dates 37 minutes apart from `startDays` days ahead, and every
 * `nextSlotEvery`th row (0: none) "next slot".
 */
export async function importFile(
  db: Db,
  s: ImportSeed,
  o: { rows: number; startDays: number; nextSlotEvery: number; first: number },
): Promise<string> {
  const videos: number[] = [];
  for (let i = 0; i < o.rows / PER_REQUEST; i++)
    videos.push(...(await seedFinishedRequest(db, s.userId, PER_REQUEST)).videos);
  const start = Date.now() + o.startDays * DAY_MS;
  const lines = videos.map((video, i) => {
    const p = s.profiles[i % s.profiles.length]!;
    const date =
      o.nextSlotEvery && i % o.nextSlotEvery === o.nextSlotEvery - 1
        ? 'next slot'
        : new Date(start + i * 37 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    return [
      video,
      p.name,
      '',
      'youtube,tiktok',
      `"Борщ за 60 секунд; випуск ${o.first + i}"`,
      `"Готуємо борщ, як у бабусі: буряк, капуста, квасоля. Рецепт у коментарях, підписуйтеся!"`,
      'їжа,борщ,рецепт,кухня',
      date,
      '',
    ].join(';');
  });
  return `\uFEFF${[HEADER, ...lines].join('\r\n')}\r\n`;
}
