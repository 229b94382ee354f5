import { useRefresh } from 'react-admin';
import type { AiReply, AiVideo } from '../contract/ai';
import { useAiAction } from './useAiAction';

/**
 * Recreate (/recreate {videoId, email}) and Reject (/close {videoId, email}) of one AI video; the list reloads
 * after each. Publish goes through the publish form (src/publications/PublishForm.tsx), not a call from here.
 */
export function useVideoActions(video: AiVideo) {
  const refresh = useRefresh();
  const { busy, run } = useAiAction();
  const email = video.userSession?.email;
  const act = (name: string, path: string, body: object, message?: string) => async () => {
    if (await run<AiReply>(name, `/api/ai/setting/${path}`, body, message)) refresh();
  };
  return {
    busy,
    recreate: act('recreate', 'recreate', { videoId: video.id, ...(email ? { email } : {}) }),
    reject: act('reject', 'close', { videoId: video.id, ...(email ? { email } : {}) }, 'kadr.ai.video_rejected'),
  };
}
