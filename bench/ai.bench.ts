import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import type { DbKind } from '../server/db/index';
import { markdownToHtml, plainToHtml } from '../server/ai/drivers/html';
import { insertUser, makeTestDb, postgresAvailable } from '../tests/helpers/db';

const MESSAGES = 1_000;
const RUNS = 30;

/**
 * The AI chat history target: a session with 1,000 stored turns (operator text plus a markdown answer of
 * ~600 characters rendered to sanitised HTML) loads in one request, GET /api/ai/info/{id}?type=gpt through
 * app.inject as the owner: time per request (median, p95) and payload size, on SQLite and PostgreSQL.
 */
export async function aiBench(): Promise<void> {
  await run('sqlite');
  if (await postgresAvailable()) await run('postgres');
  else console.log('ai  PostgreSQL did not answer at 127.0.0.1:5432: its case is skipped');
}

async function run(kind: DbKind): Promise<void> {
  const tdb = await makeTestDb(kind);
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(40),
      APP_KEY: 'bench-app-key-0123456789abcdefghijk',
      DATA_DIR: tdb.dataDir,
      WORKERS: 'off',
    } as NodeJS.ProcessEnv,
    { panelDir: '/nonexistent' },
  );
  const app = await buildApp({ config, db: tdb.db, dbKind: kind });
  try {
    const at = new Date().toISOString();
    const user = { id: await insertUser(tdb.db, 'aibench', 'bench-pass') };
    const session = await tdb.db
      .insertInto('aiSessions')
      .values({
        userId: user.id,
        email: 'bench@gpt.test',
        isActive: 1,
        status: 'success',
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const answer = (i: number) =>
      `## Answer ${i}\n\nHere is **a reply** with a [link](https://example.com/${i}) and a list:\n\n` +
      '- first point about the topic\n- second point, a little longer than the first\n- third\n\n' +
      '```js\nconst x = 1;\n```\n\n' +
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.';
    const rows = Array.from({ length: MESSAGES }, (_, i) => ({
      sessionId: session.id,
      provider: 'gpt',
      messageMy: plainToHtml(`Question number ${i}: tell me more about short videos`),
      messageAi: markdownToHtml(answer(i)),
      textMy: `Question number ${i}`,
      textAi: answer(i),
      createdAt: at,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await tdb.db
        .insertInto('aiMessages')
        .values(rows.slice(i, i + 200))
        .execute();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'aibench', password: 'bench-pass' },
    });
    const headers = { authorization: `Bearer ${login.json().accessToken}` };
    const url = `/api/ai/info/${session.id}?type=gpt`;
    const times: number[] = [];
    let bytes = 0;
    let count = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      const r = await app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - t0;
      if (r.statusCode !== 200) throw new Error(`detail answered ${r.statusCode}`);
      bytes = r.rawPayload.length;
      count = r.json().messages.length;
      if (i >= 3) times.push(ms); // three warm-up requests
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
    console.log(
      `ai  ${kind.padEnd(8)} GET /api/ai/info/{id} with ${count} messages in one request: ` +
        `median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, payload ${(bytes / 1024).toFixed(0)} KiB`,
    );
  } finally {
    await app.close();
    await tdb.drop();
  }
}
