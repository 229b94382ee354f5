import type { AiVideo } from '../contract/ai';

/** Which of Publish, Recreate and Reject an AI video offers in its state (SPEC §2 AI video buttons). */
export function videoActions(v: Pick<AiVideo, 'status' | 'videoUrl'>) {
  return {
    publish: v.status === 'success' && !!v.videoUrl,
    recreate: v.status === 'success' || v.status === 'error',
    reject: v.status === 'success' || v.status === 'error',
  };
}

/** The list refreshes itself every few seconds while a video is generating or on its way to a platform. */
export const VIDEO_REFRESH_MS = 4000;
export function videoRefresh(videos: Pick<AiVideo, 'status' | 'publication'>[] | undefined): number | false {
  const moving = videos?.some(
    (v) =>
      v.status === 'loading' ||
      (v.status === 'publication' && (!v.publication || ['publication', 'loading'].includes(v.publication.status))),
  );
  return moving ? VIDEO_REFRESH_MS : false;
}
