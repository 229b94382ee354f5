export {
  DEFAULT_RETRY,
  PermanentJobError,
  attemptsOf,
  defineJob,
  exponentialBackoff,
  jobWorker,
  type Backoff,
  type ClaimedJob,
  type JobContext,
  type JobHandler,
  type JobSpec,
  type JobWorker,
  type RetryPolicy,
} from './job';
export { JobQueue, type Enqueue, type EnqueueOptions, type JobRow, type JobStatus, type StoredJob } from './queue';
export { JobRunner, type RunnerOptions } from './runner';
