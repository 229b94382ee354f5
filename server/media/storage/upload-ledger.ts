/**
 * The multipart uploads S3 storage has started and not finished (migration 040): written when S3 answers
 * CreateMultipartUpload, before a part is sent, and removed when it answers CompleteMultipartUpload or
 * AbortMultipartUpload. What a killed process leaves here, the sweep aborts (S3Storage.sweepUploads).
 */
export interface UploadLedger {
  started(upload: PendingUpload): Promise<void>;
  finished(uploadId: string): Promise<void>;
  /** Uploads of `bucket` started before `beforeMs` (epoch ms), oldest first, at most `limit`. */
  startedBefore(bucket: string, beforeMs: number, limit: number): Promise<PendingUpload[]>;
}

export type PendingUpload = { uploadId: string; bucket: string; key: string; startedMs: number };
