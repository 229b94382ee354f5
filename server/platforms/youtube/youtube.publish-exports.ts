/** What server/platforms/index.ts re-exports of YouTube publishing (one line there, the list here). */
export {
  YouTubePublisher,
  YOUTUBE_QUOTA,
  youtubeVideoUrl,
  type YouTubePublisherOptions,
  type YouTubeSendOptions,
  type YouTubeUploadOptions,
  type YouTubeVideoStatus,
  type YouTubeUploadStatus,
  type UploadSessionState,
} from './youtube.publisher';
export { checkYouTubeFile, YOUTUBE_FILE_LIMITS } from './youtube.preflight';
export { isUploadSessionExpired, UPLOAD_SESSION_EXPIRED } from './youtube.errors';
