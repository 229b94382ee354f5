import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { uk, kadrUk } from '../../i18n/uk';
import { en } from '../../i18n/en';
import { LATER_SECTIONS, joinParts, panelPart } from '../../i18n/panelParts';

const root = join(import.meta.dirname, '../..');

/**
 * The files a page runs before any screen that waits for the later part: what `entry` imports statically
 * (`import type` and `import()` left out, since a lazily loaded screen brings the later part with it), followed
 * through the panel's own files.
 */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms)) {
      const base = join(dirname(join(root, file)), m[1]!);
      const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
        .map((ext) => base + ext)
        .find((f) => existsSync(f) && statSync(f).isFile());
      if (found && /\.tsx?$/.test(found)) visit(relative(root, found));
    }
  };
  visit(entry);
  return [...seen];
}

/** The `kadr` sections a file names in its keys (`'kadr.users.title'`, `` `kadr.status.${kind}` ``). */
const sectionsNamedIn = (file: string) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/kadr\.([a-z_]+)\./g)].map((m) => m[1]!);

describe('the panel’s messages in two parts (i18n/panelParts.ts)', () => {
  it.each([
    ['uk', uk],
    ['en', en],
  ])('join into the whole of %s', (_, messages) => {
    expect(joinParts(panelPart(messages, 'core'), panelPart(messages, 'later'))).toEqual(messages);
    expect(Object.keys(panelPart(messages, 'later').kadr as object).sort()).toEqual([...LATER_SECTIONS].sort());
  });

  it('name only sections the language files have', () => {
    for (const section of LATER_SECTIONS) expect(Object.keys(kadrUk)).toContain(section);
  });

  it('the shell and the core-only screens name no later section (they render before it loads)', () => {
    // The users list is core-only (src/users/index.ts); App.tsx and main.tsx are the shell.
    const files = [...new Set(['src/main.tsx', 'src/App.tsx', 'src/users/UserList.tsx'].flatMap(staticGraph))];
    expect(files).toEqual(
      expect.arrayContaining(['src/layout/Layout.tsx', 'src/users/index.ts', 'src/common/listFilters.tsx']),
    );
    const named = files.flatMap((file) => sectionsNamedIn(file).map((section) => `${file}: kadr.${section}`));
    expect(named.length).toBeGreaterThan(20);
    const later = named.filter((n) => (LATER_SECTIONS as readonly string[]).includes(n.split('kadr.')[1]!));
    expect(later).toEqual([]);
  });

  it('would catch a later section in a shell file', () => {
    expect(sectionsNamedIn('src/common/TagsInput.tsx')).toContain('tags');
  });
});
