import type { Db } from '../../db/index';
import type { PendingUpload, UploadLedger } from './upload-ledger';

/** The upload ledger in the database (`multipart_uploads`, migration 040), shared by every process. */
export class MultipartUploadsRepository implements UploadLedger {
  constructor(private db: Db) {}

  async started(u: PendingUpload): Promise<void> {
    await this.db
      .insertInto('multipartUploads')
      .values({ uploadId: u.uploadId, bucket: u.bucket, objectKey: u.key, startedMs: u.startedMs })
      .onConflict((oc) => oc.column('uploadId').doNothing())
      .execute();
  }

  async finished(uploadId: string): Promise<void> {
    await this.db.deleteFrom('multipartUploads').where('uploadId', '=', uploadId).execute();
  }

  async startedBefore(bucket: string, beforeMs: number, limit: number): Promise<PendingUpload[]> {
    const rows = await this.db
      .selectFrom('multipartUploads')
      .selectAll()
      .where('bucket', '=', bucket)
      .where('startedMs', '<', beforeMs)
      .orderBy('startedMs')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      uploadId: r.uploadId,
      bucket: r.bucket,
      key: r.objectKey,
      startedMs: Number(r.startedMs),
    }));
  }
}
