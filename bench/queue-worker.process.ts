// One worker process of `npm run bench -- queue`: a job runner over the no-op job on the parent's PostgreSQL. Sends
// 'ready' once it polls; on 'stop' it stops (its running jobs finish or go back), sends the ids it ran and exits.
import { createDb } from '../server/db/index';
import { JobQueue, JobRunner, jobWorker } from '../server/jobs/index';
import { noopJob } from './queue-noop';

const { db } = createDb({ databaseUrl: process.env.DATABASE_URL, sqliteFile: '' });
const ran: number[] = [];
const runner = new JobRunner({
  queue: new JobQueue(db, 'postgres'),
  catalogue: [noopJob],
  workers: [
    jobWorker(noopJob, async (_payload, { job }) => {
      ran.push(job.id);
    }),
  ],
  concurrency: Number(process.env.CONCURRENCY ?? 8),
  pollMs: 20,
}).start();
process.send!('ready');
process.on('message', (m) => {
  if (m !== 'stop') return;
  void runner
    .stop()
    .then(() => db.destroy())
    .then(() => process.send!({ ran }, () => process.exit(0)));
});
