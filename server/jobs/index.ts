export {
  DEFAULT_RETRY,
  PermanentJobError,
  attemptsOf,
  defineJob,
  exponentialBackoff,
  jobWorker,
  type Backoff,
  type CancelPolicy,
  type ClaimedJob,
  type DeadCause,
  type JobContext,
  type JobHandler,
  type JobSpec,
  type JobWorker,
  type RetryPolicy,
} from './job';
export {
  DEFAULT_STALLS,
  JobQueue,
  type DeadJob,
  type DeathRecorder,
  type Enqueue,
  type StallPolicy,
  type EnqueueOptions,
  type JobRow,
  type JobStatus,
  type StoredJob,
} from './queue';
export { JobRunner, type RunnerOptions } from './runner';
export { schedulePeriodic, slotJobKey } from './periodic';
