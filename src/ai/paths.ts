import type { AiProvider } from '../contract/ai';

/** SPEC §2 AI paths. */
export const sessionPath = (id: number | string, chat?: AiProvider) =>
  `/ai/list/${id}${chat && chat !== 'gpt' ? `?chat=${chat}` : ''}`;
export const AI_LIST = '/ai/list';
export const AI_VIDEOS = '/ai/video';
export const AI_LOGS = '/ai/logs';
