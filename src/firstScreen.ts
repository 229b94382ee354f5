import { rememberedLoad } from './common/rememberedLoad';
import { pathOfPage } from './providers/firstData';

/**
 * The screens a cold page most often opens on: each list, Settings, the calendar and the analytics dashboard.
 * main.tsx starts loading the one at the current path together with the panel's shell, so its code does not wait
 * for the shell to load and render first; the routes (App.tsx and the sections' index files) load the same chunks through these functions,
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
  '/analytics': loadAnalyticsPage,
};

/**
 * The contract modules that parse a cold page's first answers (src/providers/contract.ts loads the same ones when
 * a call is made): the bell's, every page's, and each list's page envelope and rows.
 */
const live = () => import('./contract/live');
const http = () => import('./contract/http');
const ai = () => import('./contract/ai');
const CONTRACTS: Record<string, () => Promise<unknown>> = {
  '/users': () => import('./contract/users'),
  '/accounts/list': () => import('./contract/accounts'),
  '/accounts/group/list': () => import('./contract/groups'),
  '/tags': () => import('./contract/tags'),
  '/photos': () => import('./contract/backgrounds'),
  '/video/request-create': () => import('./contract/videos'),
  '/video/list': () => import('./contract/publications'),
  '/analytics': () => import('./contract/analytics'),
  '/ai/list': ai,
  '/ai/video': ai,
  '/ai/logs': ai,
};

/**
 * Starts loading the screen at `path` and the contracts its first answers need (nothing for other paths); settles
 * when the screen is in (a failure is left to the route's own load).
 */
export function preloadScreen(path: string): Promise<unknown> | undefined {
  const at = pathOfPage(path);
  const ignore = () => undefined;
  live().catch(ignore);
  const contract = CONTRACTS[at];
  if (contract) void Promise.all([http(), contract()]).catch(ignore);
  return BY_PATH[at]?.().catch(ignore);
}
