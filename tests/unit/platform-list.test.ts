import { sources } from '../helpers/sources';

/**
 * Adding a platform touches its folder, the registry and the panel's platform list only (issue 19 item 2): a map
 * that must hold every platform of the list (a `Record` over `PlatformKey`, or over `PLATFORMS`' items) is written
 * in the list's own file, src/contract/platforms.ts. Anywhere else a new entry there would fail to compile until
 * that file, too, had its entry. A mapping onto the spec's own per-platform fields is a `Record` over
 * `SpecPlatform` (the spec's three, fixed); one that may lack a platform is `Partial`.
 */
const LIST = 'src/contract/platforms.ts';
const COMPLETE_MAP = /(?<!Partial<\s*)Record<\s*(PlatformKey|\(typeof PLATFORMS\)\[number\])\s*,/;

const completeMaps = (files: { path: string; text: string }[]) =>
  files.filter((f) => f.path !== LIST && COMPLETE_MAP.test(f.text)).map((f) => f.path);

describe('the panel platform list', () => {
  it('catches a map over every platform of the list outside the list', () => {
    expect(
      completeMaps([
        { path: 'src/analytics/colors.ts', text: 'export const C: Record<PlatformKey, string> = {};' },
        { path: 'server/x.ts', text: 'const m = {} satisfies Record<(typeof PLATFORMS)[number], number>;' },
        // Allowed: the list itself, a partial map, and the spec's three.
        { path: LIST, text: 'export const PLATFORM_LOOKS: Record<PlatformKey, PlatformLook> = {};' },
        { path: 'src/a.tsx', text: 'const t: Partial<Record<PlatformKey, string>> = {};' },
        { path: 'server/b.ts', text: 'const c = {} as const satisfies Record<SpecPlatform, string>;' },
      ]),
    ).toEqual(['src/analytics/colors.ts', 'server/x.ts']);
  });

  it('holds in the panel, the server, the simulators and the benchmarks', () => {
    const files = ['src', 'server', 'sim', 'bench'].flatMap(sources);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([LIST, 'server/platforms/registry.ts']));
    expect(completeMaps(files)).toEqual([]);
  });
});
