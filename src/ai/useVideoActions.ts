import { useRefresh } from 'react-admin';
import type { AiVideo } from '../contract/ai';
import { useAiAction } from './useAiAction';

/**
 * Recreate (/recreate {videoId, email}) and Reject (/close {videoId, email}) of one AI video; the list reloads
 * after each. Publish goes through the publish form (src/publications/PublishForm.tsx), not a call from here.
 */
export function useVideoActions(video: AiVideo) {
  const refresh = useRefresh();
  const { busy, run } = useAiAction();
  const email = video.userSession?.email;
  const body = { videoId: video.id, ...(email ? { email } : {}) };
  const act = (name: string, action: 'recreate' | 'close', message?: string) => async () => {
    if (await run(name, action, body, message)) refresh();
  };
  return {
    busy,
    recreate: act('recreate', 'recreate'),
    reject: act('reject', 'close', 'kadr.ai.video_rejected'),
  };
}
