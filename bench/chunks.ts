import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { TraceMap, eachMapping } from '@jridgewell/trace-mapping';

/**
 * What a page's JavaScript is made of: `npx vite build --sourcemap --manifest`, then
 * `npx tsx bench/chunks.ts index.html src/App.tsx` (the entry and the lazy chunks the page opens, as
 * the manifest names them). Follows each chunk's static imports, and reports each chunk's gzip size and each
 * package's or source folder's share of it (its share of the chunk's bytes, applied to the gzip size).
 * `DIST` overrides the build folder (dist/), `TOP` the number of rows (40); `BY=module` reports each module;
 * `EXCEPT=index.html,src/App.tsx` leaves out what those entries load (what a screen adds to the shell). An
 * argument `assets/<file>.js` counts that built file alone (the files a page really loaded, as bench/waterfall.ts
 * prints them, lazy ones included).
 */
type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };

const dist = process.env.DIST ?? 'dist';
// Piped into `head`: stop quietly when the reader has had enough.
process.stdout.on('error', () => process.exit(0));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

const files = new Set<string>();
const visit = (key: string) => {
  // A built file as the browser asked for it (bench/waterfall.ts lists them): that file alone.
  if (key.startsWith('assets/')) return void files.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`not in the manifest: ${key}`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const next of chunk.imports ?? []) visit(next);
};
for (const key of process.env.EXCEPT?.split(',') ?? []) visit(key);
const already = new Set(files);
for (const key of process.argv.slice(2)) visit(key);
for (const file of already) files.delete(file);

/** node_modules/@scope/pkg/… → @scope/pkg; node_modules/pkg/… → pkg; src/users/… → src/users. */
function owner(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = source.slice(nm + 'node_modules/'.length).split('/');
    const pkg = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    // The big packages, one level deeper.
    if (['@mui/material', 'ra-ui-materialui', 'ra-core', '@mui/icons-material'].includes(pkg)) {
      const rest = parts.slice(pkg.split('/').length);
      return `${pkg}/${rest[0] === 'dist' || rest[0] === 'esm' ? rest.slice(1, 3).join('/') : rest[0]}`;
    }
    return pkg;
  }
  const at = source.search(/(src|i18n)\//);
  return at >= 0 ? source.slice(at).split('/').slice(0, 2).join('/') : source;
}

const byOwner = new Map<string, number>();
let total = 0;
const rows: Array<[string, number]> = [];
for (const file of files) {
  const code = readFileSync(join(dist, file), 'utf8');
  const gz = gzipSync(code).length;
  total += gz;
  rows.push([file, gz]);
  if (!existsSync(join(dist, `${file}.map`))) {
    byOwner.set(file, gz);
    continue;
  }
  const lines = code.split('\n');
  const map = new TraceMap(readFileSync(join(dist, `${file}.map`), 'utf8'));
  // Bytes of generated code per source: each mapping owns the text up to the next mapping on its line.
  const bytes = new Map<string, number>();
  let prev: { line: number; col: number; source: string } | undefined;
  const close = (line: number, col: number) => {
    if (!prev) return;
    const n =
      line === prev.line
        ? col - prev.col
        : lines[prev.line - 1]!.length - prev.col + lines.slice(prev.line, line - 1).reduce((s, l) => s + l.length, 0);
    bytes.set(prev.source, (bytes.get(prev.source) ?? 0) + Math.max(0, n));
  };
  eachMapping(map, (m) => {
    close(m.generatedLine, m.generatedColumn);
    prev = m.source ? { line: m.generatedLine, col: m.generatedColumn, source: m.source } : undefined;
  });
  close(lines.length, lines.at(-1)!.length);
  const mapped = [...bytes.values()].reduce((s, n) => s + n, 0) || 1;
  for (const [source, n] of bytes) {
    const key = process.env.BY === 'module' ? source.replace(/.*node_modules\//, '') : owner(source);
    byOwner.set(key, (byOwner.get(key) ?? 0) + (n / mapped) * gz);
  }
}

const kb = (n: number) => (n / 1024).toFixed(1).padStart(7);
console.log(`${files.size} chunks, ${kb(total)} KB gzip`);
for (const [file, gz] of rows.sort((a, b) => b[1] - a[1])) console.log(`${kb(gz)}  ${file}`);
console.log('--- by package / folder');
for (const [key, gz] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40)))
  console.log(`${kb(gz)}  ${key}`);
