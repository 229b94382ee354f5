import { MENU, groupMatches } from '../../src/layout/menuItems';

const open = (path: string) => MENU.filter((g) => groupMatches(g, path)).map((g) => g.key);

describe('menu auto-expand (SPEC §2 Shell)', () => {
  it('opens the group whose child path the current path starts with', () => {
    expect(open('/accounts')).toEqual(['profiles']);
    expect(open('/accounts/list')).toEqual(['profiles']);
    expect(open('/accounts/15')).toEqual(['profiles']);
    expect(open('/accounts/group/list')).toEqual(['profiles']);
    expect(open('/video/request/abc')).toEqual(['video']);
    expect(open('/users/5')).toEqual(['users']);
    expect(open('/setting')).toEqual([]);
    expect(open('/accountsx')).toEqual([]);
  });
});
