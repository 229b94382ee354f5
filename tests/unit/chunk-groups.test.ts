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

// The entry with MUI; the shell and the sign-in form sharing the toaster; four lists sharing the list kit (one of
// them without the pagination); the settings page using a part of the kit, and the contract table the entry asks for.
const graph: FirstPassChunk[] = [
  chunk('index', null, ['mui'], { isEntry: true, dynamicImports: ['App', 'LoginApp', 'firstScreen'] }),
  chunk('mui', null),
  chunk('App', '/r/src/App.tsx', ['router', 'toaster', 'firstScreen']),
  chunk('LoginApp', '/r/src/LoginApp.tsx', ['form', 'toaster']),
  chunk('loginCheck', null, ['zod']),
  chunk('zod', null),
  chunk('firstScreen', '/r/src/firstScreen.ts', ['mui']),
  chunk('router', null, ['mui', 'zod']),
  chunk('toaster', null),
  chunk('form', null, [], { dynamicImports: ['loginCheck'] }),
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
    expect(['index', 'mui', 'App', 'LoginApp', 'firstScreen'].map(groupOf)).toEqual(Array(5).fill('own'));
  });

  it('groups what the sign-in form and the shell share, and what only one of them loads', () => {
    expect(groupOf('toaster')).toBe('shared');
    expect(groupOf('form')).toBe('signin');
    expect(groupOf('router')).toBe('shell');
  });

  it('leaves out of the groups what the sign-in form loads later, so that it never brings the shell', () => {
    expect(['loginCheck', 'zod'].map(groupOf)).toEqual(['own', 'own']);
  });

  it('puts what nine lists in ten load in the list kit, and leaves the rest to the default chunking', () => {
    expect(groupOf('table')).toBe('lists');
    // Three lists of four (75 %) load the pagination: not in the kit.
    expect(groupOf('pagination')).toBe('own');
    expect(['UserList', 'settingsOnly', 'SettingsPage'].map(groupOf)).toEqual(['own', 'own', 'own']);
  });

  it('does not keep apart a chunk the entry asks for when a group would import it and be imported by it', () => {
    const cyclic = graph.map((c) =>
      c.file === 'firstScreen'
        ? { ...c, imports: ['router'] }
        : c.file === 'router'
          ? { ...c, imports: ['firstScreen'] }
          : c,
    );
    const groups = groupsOf(cyclic);
    const shell = groups.find((g) => g.name === 'shell')!;
    expect(typeof shell.test === 'function' && shell.test('/m/firstScreen')).toBe(true);
  });

  it('says which screen it could not find, not a wrong plan', () => {
    expect(() => groupsOf(graph.filter((c) => c.file !== 'App'))).toThrow('src/App.tsx');
  });
});
