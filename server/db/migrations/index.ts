import * as foundation from './001_foundation.js';
import * as accounts from './002_accounts.js';
import * as groupsTags from './003_groups_tags.js';
import * as backgrounds from './004_backgrounds.js';
import * as jobsCreateVideo from './005_jobs_create_video.js';
import * as loginFailures from './006_login_failures.js';
import * as liveSessions from './007_live_sessions.js';
import * as publications from './008_publications.js';
import * as ai from './009_ai.js';
import * as live from './010_live.js';
import * as listSearch from './011_list_search.js';
import * as timeColumns from './012_time_columns.js';
import * as liveTickets from './013_live_tickets.js';
import * as userLimits from './014_user_limits.js';
import * as aiSessionOwnerEmail from './015_ai_session_owner_email.js';
import * as failingPosts from './016_failing_posts.js';
import * as profileHandles from './018_profile_handles.js';
import * as eventOutbox from './020_event_outbox.js';
import * as accountPlatforms from './021_account_platforms.js';
import * as jobClaims from './022_job_claims.js';
import * as publishStep from './023_publish_step.js';
import * as publicationPlatforms from './024_publication_platforms.js';
import * as jobIndexes from './025_job_indexes.js';
import * as mediaRetention from './026_media_retention.js';
import * as calendar from './027_calendar.js';
import * as twoFactor from './028_two_factor.js';
import * as auditLog from './029_audit_log.js';
import * as apiKeys from './030_api_keys.js';
import * as webhooks from './031_webhooks.js';
import * as publishApproval from './032_publish_approval.js';
import * as postStats from './033_post_stats.js';
import * as timeZones from './035_time_zones.js';
import * as postingSlots from './036_posting_slots.js';
import * as duplicateGuard from './037_duplicate_guard.js';
import * as platformPosts from './038_platform_posts.js';
import * as multipartUploads from './040_multipart_uploads.js';
import * as webhookSecretRotation from './042_webhook_secret_rotation.js';
import * as statRollups from './045_stat_rollups.js';
import * as postStatLatest from './046_post_stat_latest.js';
import * as videoPosts from './047_video_posts.js';
import * as userLanguage from './048_user_language.js';

/** Every migration, in order. Each domain adds its own file and one line here. */
export const migrations = {
  '001_foundation': foundation,
  '002_accounts': accounts,
  '003_groups_tags': groupsTags,
  '004_backgrounds': backgrounds,
  '005_jobs_create_video': jobsCreateVideo,
  '006_login_failures': loginFailures,
  '007_live_sessions': liveSessions,
  '008_publications': publications,
  '009_ai': ai,
  '010_live': live,
  '011_list_search': listSearch,
  '012_time_columns': timeColumns,
  '013_live_tickets': liveTickets,
  '014_user_limits': userLimits,
  '015_ai_session_owner_email': aiSessionOwnerEmail,
  '016_failing_posts': failingPosts,
  '018_profile_handles': profileHandles,
  '020_event_outbox': eventOutbox,
  '021_account_platforms': accountPlatforms,
  '022_job_claims': jobClaims,
  '023_publish_step': publishStep,
  '024_publication_platforms': publicationPlatforms,
  '025_job_indexes': jobIndexes,
  '026_media_retention': mediaRetention,
  '027_calendar': calendar,
  '028_two_factor': twoFactor,
  '029_audit_log': auditLog,
  '030_api_keys': apiKeys,
  '031_webhooks': webhooks,
  '032_publish_approval': publishApproval,
  '033_post_stats': postStats,
  '035_time_zones': timeZones,
  '036_posting_slots': postingSlots,
  '037_duplicate_guard': duplicateGuard,
  '038_platform_posts': platformPosts,
  '040_multipart_uploads': multipartUploads,
  '042_webhook_secret_rotation': webhookSecretRotation,
  '045_stat_rollups': statRollups,
  '046_post_stat_latest': postStatLatest,
  '047_video_posts': videoPosts,
  '048_user_language': userLanguage,
};
