export { JOB_NAMES, renderJobKey, type JobCatalogue, type JobName } from './catalogue';
export { JobQueue, exponentialBackoff, type Job, type JobRow, type JobStatus, type Backoff } from './queue';
export { JobRunner, PermanentJobError, type JobHandler, type JobHandlers, type JobContext } from './runner';
