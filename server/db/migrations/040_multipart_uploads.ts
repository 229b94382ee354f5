import type { Kysely } from 'kysely';
import { isPostgres } from '../schema-helpers.js';

/**
 * 040 (issue 20, a gap of item 5): the multipart uploads S3 storage has started and not yet completed or aborted,
 * one row each, written as S3 answers CreateMultipartUpload (before a part is sent) and deleted as it answers
 * CompleteMultipartUpload or AbortMultipartUpload. A process killed mid-upload leaves its row: the sweep
 * (S3Storage.sweepUploads) aborts the uploads whose rows are older than S3_STALE_UPLOAD_HOURS, since the S3 server
 * the tests run (fauxqs) has no ListMultipartUploads to find them by. `started_ms` is epoch ms (see 012), indexed
 * for the sweep's look. Expand only: a new table old processes never touch.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('multipart_uploads')
    .addColumn('upload_id', 'varchar(1024)', (c) => c.primaryKey())
    .addColumn('bucket', 'varchar(255)', (c) => c.notNull())
    .addColumn('object_key', 'varchar(1200)', (c) => c.notNull())
    .addColumn('started_ms', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('multipart_uploads_started')
    .on('multipart_uploads')
    .columns(['bucket', 'started_ms'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('multipart_uploads').execute();
}
