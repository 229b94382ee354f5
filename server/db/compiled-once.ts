import { CamelCasePlugin, type Compilable, type CompiledQuery } from 'kysely';

/** Marker numbers put in the arguments' places (MARKER + i): far above any id, offset or limit of the app. */
const MARKER = 987_654_000;

/**
 * A query built and compiled once. Kysely builds an operation tree, passes it through the camel-case plugin and
 * prints it on every call: for a hot list's wide join that costs more than the database takes to run it.
 * `build` is called once with marker numbers for its numeric arguments (ids, offsets); each call then answers
 * the same SQL with its own values in the markers' places (with the SQLite statement cache, nothing is parsed
 * again either). Every argument must reach the statement as a bound parameter, never printed into the SQL.
 */
export function compiledOnce<A extends number[], O>(
  build: (...args: A) => Compilable<O>,
): (...args: A) => CompiledQuery<O> {
  let template: { query: CompiledQuery<O>; slots: Array<{ arg: number } | { value: unknown }> } | undefined;
  const compile = () => {
    const markers = Array.from({ length: build.length }, (_, i) => MARKER + i) as A;
    const query = build(...markers).compile();
    const slots = query.parameters.map((p) => {
      const arg = typeof p === 'number' ? markers.indexOf(p) : -1;
      return arg >= 0 ? { arg } : { value: p };
    });
    const bound = new Set(slots.flatMap((s) => ('arg' in s ? [s.arg] : [])));
    if (bound.size !== markers.length) throw new Error(`compiledOnce: an argument is not a parameter of ${query.sql}`);
    return { query, slots };
  };
  return (...args) => {
    const t = (template ??= compile());
    return { ...t.query, parameters: t.slots.map((s) => ('arg' in s ? args[s.arg] : s.value)) };
  };
}

/** The plugin's own key mapping (the one createDb's Kysely uses). */
class CamelNames extends CamelCasePlugin {
  of = (key: string) => this.camelCase(key);
}
const camel = new CamelNames();
const rowMappers = new Map<string, (row: Record<string, unknown>) => unknown>();

/**
 * The rows of a statement run without the camel-case plugin (`db.withoutPlugins()`), keyed as the plugin keys
 * them (`owner_login` → `ownerLogin`, by the plugin's own mapping). The plugin looks each key up and checks
 * each value on every row; here one function per column list, with the names written into it, copies a flat row
 * (scalars only) into an object of one fixed shape. The names come from the statement's own columns.
 */
export function camelRows<T>(rows: ReadonlyArray<Record<string, unknown>>): T[] {
  if (!rows.length) return [];
  const keys = Object.keys(rows[0]!);
  const id = keys.join(',');
  let map = rowMappers.get(id);
  if (!map) {
    const fields = keys.map((k) => `${JSON.stringify(camel.of(k))}: r[${JSON.stringify(k)}]`);
    map = new Function('r', `return { ${fields.join(', ')} };`) as (row: Record<string, unknown>) => unknown;
    rowMappers.set(id, map);
  }
  return rows.map(map) as T[];
}
