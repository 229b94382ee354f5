import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The server's shape, checked from its import statements (static, type-only and dynamic imports alike):
 * - server/jobs is the generic queue and runner: it imports the database layer only, never a domain;
 * - folders under server/ (and the root-level files) form no import cycle;
 * - only the composition files at server/ level (main → app → container, workers) assemble the server:
 *   no folder imports them.
 */
const SERVER = resolve('server');
const COMPOSITION = new Set(['main', 'app', 'container', 'workers']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** A server file's node: its top folder under server/, or the root-level file's name (config, app, …). */
function nodeOf(file: string): string {
  const rel = relative(SERVER, file).split(sep);
  return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.ts$/, '');
}

/** node → nodes it imports (server files only), with one example import per edge for the failure message. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of filesUnder(SERVER)) {
    const from = nodeOf(file);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(SERVER + sep)) continue; // src/contract, node built-ins: outside the graph
      const to = nodeOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (to !== from && !edges.has(to)) edges.set(to, `${relative(SERVER, file)} → ${fileName}`);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 'done') return null;
    if (state.get(n) === 'open') return [...path.slice(path.indexOf(n)), n];
    state.set(n, 'open');
    path.push(n);
    for (const next of graph.get(n)?.keys() ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(n, 'done');
    return null;
  };
  for (const n of [...graph.keys()].sort()) {
    const cycle = visit(n);
    if (cycle) return cycle;
  }
  return null;
}

describe('server architecture', () => {
  const graph = folderGraph();

  it('reads a graph with the domains in it (the check is not vacuous)', () => {
    for (const n of ['jobs', 'videos', 'accounts', 'backgrounds', 'container']) expect(graph.has(n), n).toBe(true);
    expect(graph.get('container')!.has('videos')).toBe(true);
  });

  it('server/jobs imports no domain, only the database layer', () => {
    const out = [...graph.get('jobs')!.entries()].filter(([to]) => to !== 'db');
    expect(out.map(([, example]) => example)).toEqual([]);
  });

  it('has no import cycle between server folders', () => {
    const cycle = findCycle(graph);
    const explain = cycle
      ?.slice(1)
      .map((to, i) => graph.get(cycle[i]!)!.get(to))
      .join('; ');
    expect(cycle && `${cycle.join(' → ')} (${explain})`).toBeNull();
  });

  it('only the composition files assemble the server: no folder imports main, app, container or workers', () => {
    const offenders = [...graph.entries()]
      .filter(([from]) => !COMPOSITION.has(from))
      .flatMap(([, edges]) => [...edges.entries()].filter(([to]) => COMPOSITION.has(to)).map(([, example]) => example));
    expect(offenders).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself)', () => {
    const g = new Map([
      ['a', new Map([['b', 'x']])],
      ['b', new Map([['c', 'y']])],
      ['c', new Map([['a', 'z']])],
    ]);
    expect(findCycle(g)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', new Map([['b', 'x']])],
          ['b', new Map()],
        ]),
      ),
    ).toBeNull();
  });
});
