import type { Rolldown } from 'vite';

/** A chunk of the first pass (scripts/vite/chunkPlan.ts), as the grouping reads it. */
export type FirstPassChunk = {
  file: string;
  facade: string | null;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  modules: string[];
};
export type ChunkGroup = NonNullable<Rolldown.CodeSplittingOptions['groups']>[number];

/** What a list screen is: a lazily loaded screen module named `…List.tsx` (src/users/UserList.tsx). */
const LIST_SCREEN = /[\\/]src[\\/]\w+[\\/]\w+List\.tsx$/;
/** The list kit: what this share of the list screens (at least) loads besides the panel's shell. */
const KIT_SHARE = 0.9;

/** The groups for the first pass's chunks: see chunkGroups in scripts/vite/chunkPlan.ts. */
export function groupsOf(chunks: FirstPassChunk[]): ChunkGroup[] {
  const byFile = new Map(chunks.map((c) => [c.file, c]));
  const closure = (from: FirstPassChunk | undefined, seen = new Set<string>()): Set<string> => {
    if (!from || seen.has(from.file)) return seen;
    seen.add(from.file);
    for (const next of from.imports) closure(byFile.get(next), seen);
    return seen;
  };
  const facade = (end: string) => {
    const found = chunks.find((c) => c.facade?.replaceAll('\\', '/').endsWith(end));
    if (!found) throw new Error(`chunk plan: no chunk for ${end}`);
    return found;
  };
  const base = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [...closure(c)]));
  const app = facade('src/App.tsx');
  const shell = closure(app);
  // What the entry loads by itself besides the shell (src/boot.ts: the first screen's table and the messages; the
  // sign-in form's check on submit) stays out of the groups, and so does what it loads: a group loads and runs as
  // one, so the sign-in form's check in the shell's group brought the whole shell to the signed-out page and ran it.
  const early = new Set(
    [...base]
      .flatMap((file) => byFile.get(file)!.dynamicImports)
      .filter((file) => file !== app.file)
      .flatMap((file) => [...closure(byFile.get(file))]),
  );
  const lists = chunks.filter((c) => c.facade && LIST_SCREEN.test(c.facade) && !base.has(c.file));
  const uses = new Map<string, number>();
  for (const list of lists) for (const file of closure(list)) uses.set(file, (uses.get(file) ?? 0) + 1);

  const groupOfChunk = new Map<string, string>();
  for (const c of chunks) {
    if (base.has(c.file) || early.has(c.file)) continue;
    if (shell.has(c.file)) groupOfChunk.set(c.file, 'shell');
    else if ((uses.get(c.file) ?? 0) >= KIT_SHARE * lists.length) groupOfChunk.set(c.file, 'lists');
  }
  const groupOfModule = new Map<string, string>();
  for (const c of chunks) {
    const group = groupOfChunk.get(c.file);
    if (group) for (const id of c.modules) groupOfModule.set(id, group);
  }
  // Each group is already whole: what a chunk of it imports is in the group, in a group every page that loads it
  // loads too, or in the entry's chunks. (Rolldown would otherwise pull those entry modules in.)
  const group = (name: string) => ({
    name,
    test: (id: string) => groupOfModule.get(id) === name,
    includeDependenciesRecursively: false,
  });
  return [group('shell'), group('lists')];
}
