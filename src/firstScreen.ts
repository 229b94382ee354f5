/**
 * The screens a cold page most often opens on: each list, and Settings. main.tsx starts loading the one at the
 * current path together with the panel's shell, so its code does not wait for the shell to load and render
 * first; the routes (App.tsx and the sections' index files) load the same chunks through these functions.
 */

/**
 * `load` once: the same promise for every caller (a failed load is tried again next time), and `loaded()` the
 * module as soon as it is in, so lazyScreen renders a preloaded screen without suspending.
 */
function once<T>(load: () => Promise<T>): (() => Promise<T>) & { loaded: () => T | undefined } {
  let pending: Promise<T> | undefined;
  let module: T | undefined;
  const get = () =>
    (pending ??= load().then(
      (m) => (module = m),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  return Object.assign(get, { loaded: () => module });
}

export const loadUserList = once(() => import('./users/UserList'));
export const loadAccountList = once(() => import('./accounts/AccountList'));
export const loadGroupList = once(() => import('./groups/GroupList'));
export const loadTagSetList = once(() => import('./tags/TagSetList'));
export const loadFolderList = once(() => import('./backgrounds/FolderList'));
export const loadRequestList = once(() => import('./videos/RequestList'));
export const loadYouTubeList = once(() => import('./publications/YouTubeList'));
export const loadAiSessionList = once(() => import('./ai/AiSessionList'));
export const loadAiVideoList = once(() => import('./ai/AiVideoList'));
export const loadAiLogList = once(() => import('./ai/AiLogList'));
export const loadSettingsPage = once(() => import('./settings/SettingsPage'));
export const loadAnalyticsPage = once(() => import('./analytics/AnalyticsPage'));

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
  // The dashboard's answer too: it is what the page waits for.
  '/analytics': () =>
    Promise.all([loadAnalyticsPage(), import('./analytics/dashboardPrefetch').then((m) => m.prefetchDashboard())]),
};

/** Starts loading the screen at `path` (nothing for other paths); a failure is left to the route's own load. */
export function preloadScreen(path: string) {
  BY_PATH[path.replace(/(.)\/$/, '$1')]?.().catch(() => undefined);
}
