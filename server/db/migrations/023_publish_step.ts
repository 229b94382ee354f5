import type { Kysely } from 'kysely';

/**
 * 023: video_publishes.step, the step of the post's publishing chain whose job is the latest queued (issue 20
 * item 4). The chain's stale-job check, "retry now" and "publish again" read it from the row (a primary-key
 * read) and reach the step's job by its exact key (jobs.key is unique), instead of scanning the jobs table for
 * `publication.publish:{id}:%`. Written in the transaction that queues the step's job.
 *
 * Carried over: each row takes the highest step its chain's jobs have (read from their payloads). Expand only:
 * an old process neither reads nor writes the column; a step it queues is never below the row's, so a new
 * process does not take it for stale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('video_publishes')
    .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const jobs = await db.selectFrom('jobs').select('payload').where('name', '=', 'publication.publish').execute();
  const latest = new Map<number, number>();
  for (const { payload } of jobs as { payload: string }[]) {
    const p = JSON.parse(payload) as { publishId?: unknown; step?: unknown };
    if (!Number.isInteger(p.publishId) || !Number.isInteger(p.step)) continue;
    const id = p.publishId as number;
    latest.set(id, Math.max(latest.get(id) ?? 0, p.step as number));
  }
  for (const [id, step] of latest)
    if (step > 0) await db.updateTable('video_publishes').set({ step }).where('id', '=', id).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('video_publishes').dropColumn('step').execute();
}
