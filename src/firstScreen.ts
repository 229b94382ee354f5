/**
 * The screens a cold page most often opens on: each list, and Settings. main.tsx starts loading the one at the
 * current path together with the panel's shell, so its code does not wait for the shell to load and render
 * first; the routes (App.tsx and the sections' index files) load the same chunks through these functions.
 */
export const loadUserList = () => import('./users/UserList');
export const loadAccountList = () => import('./accounts/AccountList');
export const loadGroupList = () => import('./groups/GroupList');
export const loadTagSetList = () => import('./tags/TagSetList');
export const loadFolderList = () => import('./backgrounds/FolderList');
export const loadRequestList = () => import('./videos/RequestList');
export const loadYouTubeList = () => import('./publications/YouTubeList');
export const loadAiSessionList = () => import('./ai/AiSessionList');
export const loadAiVideoList = () => import('./ai/AiVideoList');
export const loadAiLogList = () => import('./ai/AiLogList');
export const loadSettingsPage = () => import('./settings/SettingsPage');

const BY_PATH: Record<string, () => Promise<unknown>> = {
  '/users': loadUserList,
  '/accounts': loadAccountList,
  '/accounts/list': loadAccountList,
  '/accounts/group': loadGroupList,
  '/accounts/group/list': loadGroupList,
  '/tags': loadTagSetList,
  '/photos': loadFolderList,
  '/video/request-create': loadRequestList,
  '/video/list': loadYouTubeList,
  '/ai/list': loadAiSessionList,
  '/ai/video': loadAiVideoList,
  '/ai/logs': loadAiLogList,
  '/setting': loadSettingsPage,
};

/** Starts loading the screen at `path` (nothing for other paths); a failure is left to the route's own load. */
export function preloadScreen(path: string) {
  BY_PATH[path.replace(/(.)\/$/, '$1')]?.().catch(() => undefined);
}
