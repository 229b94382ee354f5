import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The server's folders as a graph, read from its import statements (static, type-only and dynamic imports
 * alike): a node is a top folder under server/, or a root-level file (config, app, …); an edge says one imports
 * the other, with one example import per edge. tests/api/architecture.test.ts checks it, and
 * `npm run docs:graph` draws it (docs/import-graph.md).
 */
export type FolderGraph = Map<string, Map<string, string>>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** node → nodes it imports (server files only), with one example import per edge. */
export function folderGraph(server = resolve('server')): FolderGraph {
  const nodeOf = (file: string) => {
    const rel = relative(server, file).split(sep);
    return rel.length > 1 ? rel[0]! : rel[0]!.replace(/\.ts$/, '');
  };
  const graph: FolderGraph = new Map();
  for (const file of filesUnder(server).sort()) {
    const from = nodeOf(file);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(server + sep)) continue; // src/contract, node built-ins: outside the graph
      const to = nodeOf(target.endsWith('.ts') ? target : `${target}.ts`);
      if (to !== from && !edges.has(to)) edges.set(to, `${relative(server, file)} → ${fileName}`);
    }
  }
  return graph;
}

/** A cycle of the graph as its path (first node repeated at the end), or null when it has none. */
export function findCycle(graph: FolderGraph): string[] | null {
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

/**
 * The nodes of an acyclic graph in layers, from what nothing imports (the composition) down to what imports
 * nothing: each node one layer below the lowest of those that import it, so every edge points down.
 */
export function layersOf(graph: FolderGraph): string[][] {
  const depth = new Map<string, number>();
  const importers = new Map<string, string[]>();
  for (const [from, edges] of graph)
    for (const to of edges.keys()) importers.set(to, [...(importers.get(to) ?? []), from]);
  const depthOf = (n: string): number => {
    const known = depth.get(n);
    if (known !== undefined) return known;
    const d = Math.max(-1, ...(importers.get(n) ?? []).map(depthOf)) + 1;
    depth.set(n, d);
    return d;
  };
  const layers: string[][] = [];
  for (const n of [...graph.keys()].sort()) (layers[depthOf(n)] ??= []).push(n);
  return layers;
}
