import type { AiConfig } from '../../config-ai';
import { OpenAiVideos } from './openai-videos';
import { OpenRouterVideos } from './openrouter';
import type { VideoGenerator } from './video-generator';

export type { VideoGenerator, VideoJobState, VideoRequest } from './video-generator';

/** The configured video generator (AI_VIDEO_DIALECT), or null when AI_VIDEO_BASE_URL is unset. */
export function createVideoGenerator(ai: AiConfig): VideoGenerator | null {
  const v = ai.video;
  if (!v.baseUrl) return null;
  const o = { baseUrl: v.baseUrl, apiKey: v.apiKey, timeoutMs: ai.timeoutMs };
  return v.dialect === 'openai-videos' ? new OpenAiVideos(o) : new OpenRouterVideos(o);
}
