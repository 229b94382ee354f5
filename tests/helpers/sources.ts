import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

/** The source files under `dir` (relative to the repository), each with its path and text. */
export function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(path);
    return /\.(tsx?|cjs|mjs|js)$/.test(e.name) ? [{ path, text: readFileSync(join(root, path), 'utf8') }] : [];
  });
}
