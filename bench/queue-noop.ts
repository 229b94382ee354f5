import { z } from 'zod';
import { defineJob } from '../server/jobs/index';

/** The queue benchmark's job: it does nothing, so what is measured is the queue (claim, complete) alone. */
export const noopJob = defineJob({ name: 'bench.noop', payload: z.object({}), retry: { kind: 'never' } });
