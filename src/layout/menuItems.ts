/** SPEC §2 Shell menu, in order. `match` prefixes decide which group auto-expands for a path. */
/** `exact`: other paths of the leaf, matched whole (not as prefixes). */
export type MenuLeaf = { key: string; to: string; match: string[]; exact?: string[] };
export type MenuGroup = { key: string; icon: string; children: MenuLeaf[]; adminOnly?: boolean };

export const MENU: MenuGroup[] = [
  {
    key: 'profiles',
    icon: 'profiles',
    children: [
      {
        key: 'profiles_list',
        to: '/accounts/list',
        match: ['/accounts/list', '/accounts/create', '/accounts/'],
        exact: ['/accounts'],
      },
      { key: 'profile_groups', to: '/accounts/group/list', match: ['/accounts/group'] },
    ],
  },
  {
    key: 'video',
    icon: 'video',
    children: [
      { key: 'youtube_list', to: '/video/list', match: ['/video/list', '/video/youtube'] },
      { key: 'calendar', to: '/calendar', match: ['/calendar'] },
      { key: 'analytics', to: '/analytics', match: ['/analytics'] },
      { key: 'imports', to: '/video/import', match: ['/video/import'] },
      { key: 'create_requests', to: '/video/request-create', match: ['/video/request', '/video/create'] },
    ],
  },
  { key: 'background', icon: 'background', children: [{ key: 'background', to: '/photos', match: ['/photos'] }] },
  { key: 'tags', icon: 'tags', children: [{ key: 'tags', to: '/tags', match: ['/tags'] }] },
  {
    key: 'ai',
    icon: 'ai',
    children: [
      { key: 'ai_sessions', to: '/ai/list', match: ['/ai/list'] },
      { key: 'ai_videos', to: '/ai/video', match: ['/ai/video'] },
      { key: 'ai_logs', to: '/ai/logs', match: ['/ai/logs'] },
    ],
  },
  { key: 'users', icon: 'users', adminOnly: true, children: [{ key: 'users', to: '/users', match: ['/users'] }] },
  {
    key: 'approvals',
    icon: 'approvals',
    adminOnly: true,
    children: [{ key: 'approvals', to: '/approvals', match: ['/approvals'] }],
  },
  { key: 'jobs', icon: 'jobs', adminOnly: true, children: [{ key: 'jobs', to: '/jobs', match: ['/jobs'] }] },
  { key: 'audit', icon: 'audit', adminOnly: true, children: [{ key: 'audit', to: '/audit', match: ['/audit'] }] },
];

/** Whether a group holds the current path (so it opens by itself). */
export const groupMatches = (g: MenuGroup, path: string) =>
  g.children.some((c) => path === c.to || c.exact?.includes(path) || c.match.some((m) => path.startsWith(m)));

export const menuFor = (role: string | undefined) => MENU.filter((g) => !g.adminOnly || role === 'admin');
