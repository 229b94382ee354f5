import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  sql,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { camelRows, compiledOnce } from '../../server/db/compiled-once';

type DB = { accounts: { id: number; userId: number; titleChannel: string | null } };

/** A Kysely that compiles like the app's SQLite one and runs nothing. */
const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
  plugins: [new CamelCasePlugin()],
});

/** A query built once with markers; each call gets the same SQL with its own values (server/db/compiled-once.ts). */
describe('compiledOnce', () => {
  const page = (userId: number, offset: number) =>
    db
      .selectFrom('accounts')
      .select(['id', 'titleChannel'])
      .where('userId', '=', userId)
      .where('id', '>', 0)
      .orderBy('id', 'desc')
      .limit(10)
      .offset(offset);

  it('answers the SQL the builder prints, each call with its own values in their places', () => {
    let built = 0;
    const compiled = compiledOnce((userId: number, offset: number) => {
      built++;
      return page(userId, offset);
    });
    for (const [userId, offset] of [
      [7, 0],
      [12, 30],
      [7, 9990],
    ] as const) {
      const q = compiled(userId, offset);
      const direct = page(userId, offset).compile();
      expect(q.sql).toBe(direct.sql);
      expect(q.parameters).toEqual(direct.parameters);
    }
    expect(built).toBe(1);
    expect(compiled(3, 40).sql).toContain('"title_channel"');
  });

  it('binds an argument used twice in both places', () => {
    const compiled = compiledOnce((userId: number) =>
      db
        .selectFrom('accounts')
        .select('id')
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('id', '=', userId), eb('id', '>', 5)])),
    );
    expect(compiled(42).parameters).toEqual([42, 42, 5]);
  });

  it('refuses a query whose argument is printed into the SQL rather than bound', () => {
    const compiled = compiledOnce((offset: number) => db.selectFrom('accounts').select('id').offset(sql.lit(offset)));
    expect(() => compiled(10)).toThrow(/not a parameter/);
  });
});

/** Rows of a statement run without the camel-case plugin, keyed as the plugin keys them. */
describe('camelRows', () => {
  it('keys flat rows as the camel-case plugin does, values untouched', async () => {
    const rows = [
      { id: 1, user_id: 2, owner_login: 'anna', is_active_you_tube: 1, id_gpt: null, title_tik_tok: 'a"b' },
      { id: 3, user_id: 4, owner_login: 'ivan', is_active_you_tube: 0, id_gpt: 'g', title_tik_tok: null },
    ];
    const viaPlugin = await new CamelCasePlugin().transformResult({
      result: { rows: rows.map((r) => ({ ...r })) },
      queryId: { queryId: 'x' },
    });
    expect(camelRows(rows)).toEqual(viaPlugin.rows);
    expect(camelRows(rows)[0]).toEqual({
      id: 1,
      userId: 2,
      ownerLogin: 'anna',
      isActiveYouTube: 1,
      idGpt: null,
      titleTikTok: 'a"b',
    });
    expect(camelRows([])).toEqual([]);
  });
});
