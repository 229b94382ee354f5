/** Everything the publish job and the quota counter need for TikTok, in one import. */
export {
  TikTokPublisher,
  type TikTokPublisherOptions,
  type TikTokPublishOutcome,
  type TikTokPublishStatus,
  type TikTokUploadOptions,
  type TikTokUploadSession,
  type TikTokVideoStats,
} from './tiktok.publisher';
export { checkTikTokFile, TIKTOK_FILE_LIMITS, type TikTokFileCheckOptions } from './tiktok.preflight';
export {
  TIKTOK_CAPTION_MAX,
  TIKTOK_POSTING_LIMITS,
  TIKTOK_RATE_LIMITS,
  tiktokChunkPlan,
  tiktokChunkRange,
  tiktokResumeChunk,
  type TikTokChunkPlan,
} from './tiktok.limits';
export {
  pickTikTokPrivacy,
  tiktokCaption,
  tiktokPostUrl,
  type TikTokCreatorInfo,
  type TikTokPrivacyChoice,
  type TikTokPrivacyLevel,
} from './tiktok.post-info';
export { tiktokFailReasonError } from './tiktok.errors';
