import { readFileSync } from 'node:fs';
import { findCycle, folderGraph } from '../../scripts/import-graph/folder-graph';
import { IMPORT_GRAPH_DOC, renderImportGraphDoc } from '../../scripts/import-graph-doc';

/**
 * The server's shape, checked from its import statements (static, type-only and dynamic imports alike):
 * - server/jobs is the generic queue and runner: it imports the database layer only, never a domain;
 * - folders under server/ (and the root-level files) form no import cycle;
 * - only the composition files at server/ level (main → app → container, workers) assemble the server:
 *   no folder imports them;
 * - docs/import-graph.md draws the graph as it is (`npm run docs:graph`).
 */
const COMPOSITION = new Set(['main', 'app', 'container', 'workers']);

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

  it('docs/import-graph.md draws the graph as it is', async () => {
    expect(readFileSync(IMPORT_GRAPH_DOC, 'utf8'), 'out of date: run `npm run docs:graph` and commit the result').toBe(
      await renderImportGraphDoc(graph),
    );
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
