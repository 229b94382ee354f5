import { build, type Rolldown } from 'vite';
import { groupsOf, type ChunkGroup } from './chunkGroups.ts';

/** Set while the first pass builds: that build chunks the default way. */
const FIRST_PASS = 'KADR_CHUNK_PLAN_FIRST_PASS';

/**
 * The panel's chunks, drawn from a first build chunked the default way (one chunk per set of screens that shares a
 * module: about 230 files, 80–90 of them for one list page, most under 1 KB). That build's chunks, which are
 * already tree-shaken, say what each page really loads; the real build then groups them:
 * - `shell`: what the panel's shell (src/App.tsx) loads beyond the entry's own chunks (which hold the sign-in form);
 * - `lists`: the list kit, what nine lists in ten load (react-admin's list, its table, filters and pagination).
 *   A screen that needs a part of it loads it whole (a form opened cold: its code comes mostly from there anyway).
 * What the entry loads by itself besides the shell, with what that loads, stays out (a group loads and runs as one:
 * the sign-in form's check would bring the shell to the signed-out page), and everything else keeps the default
 * chunking. A list's code then comes in about 40 files instead of 80–90, and is smaller by the module glue between
 * them (docs/benchmarks-cold-pages.md). Returns no groups outside `vite build`, and none in the first pass itself.
 */
export async function chunkGroups(configFile: string, command: string): Promise<ChunkGroup[] | undefined> {
  if (command !== 'build' || process.env[FIRST_PASS]) return undefined;
  process.env[FIRST_PASS] = '1';
  try {
    const output = await build({ configFile, logLevel: 'silent', build: { write: false, sourcemap: false } });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    const chunks = outputs
      .flatMap((o) => o.output)
      .filter((c): c is Rolldown.OutputChunk => c.type === 'chunk')
      .map((c) => ({
        file: c.fileName,
        facade: c.facadeModuleId,
        isEntry: c.isEntry,
        imports: c.imports,
        dynamicImports: c.dynamicImports,
        modules: c.moduleIds,
      }));
    return groupsOf(chunks);
  } finally {
    delete process.env[FIRST_PASS];
  }
}
