import { groupsOf, type FirstPassChunk } from '../../scripts/vite/chunkGroups';

/** A first-pass chunk of one module (named after the file), importing other such chunks. */
const chunk = (file: string, facade: string | null, imports: string[] = [], more: Partial<FirstPassChunk> = {}) => ({
  file,
  facade,
  isEntry: false,
  imports,
  dynamicImports: [],
  modules: [`/m/${file}`],
  ...more,
});

// The entry with MUI and the sign-in form, which checks its fields on submit with zod (loginCheck); the shell, whose
// router uses zod too; four lists sharing the list kit (one of them without the pagination); the settings page
// using a part of the kit; the first screen's table, which the entry asks for by itself.
const graph: FirstPassChunk[] = [
  chunk('index', null, ['mui', 'form'], { isEntry: true, dynamicImports: ['App', 'firstScreen', 'loginCheck'] }),
  chunk('mui', null),
  chunk('form', null, ['mui']),
  chunk('loginCheck', null, ['zod']),
  chunk('zod', null),
  chunk('App', '/r/src/App.tsx', ['router', 'firstScreen']),
  chunk('firstScreen', '/r/src/firstScreen.ts', ['mui']),
  chunk('router', null, ['mui', 'menu', 'zod']),
  chunk('menu', null),
  chunk('UserList', '/r/src/users/UserList.tsx', ['table', 'pagination', 'router']),
  chunk('AccountList', '/r/src/accounts/AccountList.tsx', ['table', 'pagination']),
  chunk('GroupList', '/r/src/groups/GroupList.tsx', ['table', 'pagination']),
  chunk('JobList', '/r/src/jobs/JobList.tsx', ['table']),
  chunk('SettingsPage', '/r/src/settings/SettingsPage.tsx', ['table', 'settingsOnly']),
  chunk('table', null, ['mui']),
  chunk('pagination', null),
  chunk('settingsOnly', null),
];

const groupOf = (file: string) => {
  const found = groupsOf(graph).filter((g) => typeof g.test === 'function' && g.test(`/m/${file}`));
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.name ?? 'own';
};

describe('chunk groups from the first pass', () => {
  it('leaves the entry and what it loads, and what it asks for by itself, as they are', () => {
    expect(['index', 'mui', 'form', 'firstScreen'].map(groupOf)).toEqual(Array(4).fill('own'));
  });

  it('groups what the shell loads beyond the entry, the shell itself included', () => {
    expect(['App', 'router', 'menu'].map(groupOf)).toEqual(['shell', 'shell', 'shell']);
  });

  it('leaves out of the groups what the entry may load without the shell, so that it never brings the shell', () => {
    // zod is the shell's too, but the sign-in form's check loads it signed out.
    expect(['loginCheck', 'zod'].map(groupOf)).toEqual(['own', 'own']);
  });

  it('puts what nine lists in ten load in the list kit, and leaves the rest to the default chunking', () => {
    expect(groupOf('table')).toBe('lists');
    // Three lists of four (75 %) load the pagination: not in the kit.
    expect(groupOf('pagination')).toBe('own');
    expect(['UserList', 'settingsOnly', 'SettingsPage'].map(groupOf)).toEqual(['own', 'own', 'own']);
  });

  it('says which screen it could not find, not a wrong plan', () => {
    expect(() => groupsOf(graph.filter((c) => c.file !== 'App'))).toThrow('src/App.tsx');
  });
});
