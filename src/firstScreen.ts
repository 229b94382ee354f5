import { rememberedLoad } from './common/rememberedLoad';

/**
 * The screens a cold page most often opens on: each list, Settings, the calendar and the analytics dashboard. main.tsx starts loading the
 * one at the current path together with the panel's shell, so its code does not wait for the shell to load and
 * render first; the routes (App.tsx and the sections' index files) load the same chunks through these functions,
 * and render a screen already loaded without suspending (lazyScreen).
 */
export const loadUserList = rememberedLoad(() => import('./users/UserList'));
export const loadAccountList = rememberedLoad(() => import('./accounts/AccountList'));
export const loadGroupList = rememberedLoad(() => import('./groups/GroupList'));
export const loadTagSetList = rememberedLoad(() => import('./tags/TagSetList'));
export const loadFolderList = rememberedLoad(() => import('./backgrounds/FolderList'));
export const loadRequestList = rememberedLoad(() => import('./videos/RequestList'));
export const loadYouTubeList = rememberedLoad(() => import('./publications/YouTubeList'));
export const loadAiSessionList = rememberedLoad(() => import('./ai/AiSessionList'));
export const loadAiVideoList = rememberedLoad(() => import('./ai/AiVideoList'));
export const loadAiLogList = rememberedLoad(() => import('./ai/AiLogList'));
export const loadSettingsPage = rememberedLoad(() => import('./settings/SettingsPage'));
export const loadCalendarPage = rememberedLoad(() => import('./calendar/CalendarPage'));
export const loadAnalyticsPage = rememberedLoad(() => import('./analytics/AnalyticsPage'));

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
  '/calendar': loadCalendarPage,
  // The dashboard's answer too: it is what the page waits for.
  '/analytics': () =>
    Promise.all([loadAnalyticsPage(), import('./analytics/dashboardPrefetch').then((m) => m.prefetchDashboard())]),
};

/**
 * Starts loading the screen at `path` (nothing for other paths); settles when it is in (a failure is left to the
 * route's own load).
 */
export function preloadScreen(path: string): Promise<unknown> | undefined {
  return BY_PATH[path.replace(/(.)\/$/, '$1')]?.().catch(() => undefined);
}
