import type { AiProvider } from '../contract/ai';

/** SPEC §2 AI paths. */
export const sessionPath = (id: number | string, chat?: AiProvider) =>
  `/ai/list/${id}${chat && chat !== 'gpt' ? `?chat=${chat}` : ''}`;
export const AI_LIST = '/ai/list';
export const AI_VIDEOS = '/ai/video';
export const AI_LOGS = '/ai/logs';
/** An empty AI list's way to get some: sessions start on a profile ('Підключити GPT'). */
export const OPEN_PROFILES = { to: '/accounts', label: 'kadr.lists.empty.open_profiles' };
