import { mkdir, rm } from 'node:fs/promises';
import { PassThrough, pipeline } from 'node:stream';
import type { Ffmpeg } from '../media/ffmpeg/ffmpeg';
import type { Media } from '../media/storage/index';
import type { MediaFacts, PublishSource } from '../platforms/publish-types';

/**
 * The rendered file as the publish job hands it to a platform: a byte-range source that streams (an upload never
 * holds the file in memory and resumes from any acknowledged byte), the ffprobe facts every pre-flight gate reads,
 * and the absolute signed link Instagram fetches (answering Range: server/media/media.routes.ts).
 */
export class PublishMedia {
  constructor(
    private media: Media,
    private ffmpeg: Ffmpeg,
    /** PUBLIC_URL, read when a link is made (the address the platform fetches from). */
    private publicUrl: () => string,
  ) {}

  /** Null when the file is gone (the video was deleted with its file). */
  async source(key: string): Promise<PublishSource | null> {
    const st = await this.media.storage.stat(key);
    if (!st) return null;
    return {
      size: st.size,
      contentType: 'video/mp4',
      open: (start, end) => {
        // The storage opens its stream asynchronously (a ranged GET on S3): hand out a pass-through at once.
        const out = new PassThrough({ highWaterMark: 1024 * 1024 });
        this.media.storage.createReadStream(key, { start, end: end - 1 }).then(
          (body) => pipeline(body, out, () => {}), // an error or an early close on either side ends both
          (err: Error) => out.destroy(err),
        );
        return out;
      },
    };
  }

  /** What ffprobe reads of the file (on S3 from a copy in a scratch folder, removed after), in the gates' shape. */
  async facts(key: string, signal?: AbortSignal): Promise<MediaFacts> {
    const scratch = this.media.storage.tempPath();
    await mkdir(scratch, { recursive: true });
    try {
      const path = await this.media.storage.inputPath(key, scratch);
      const [p, st] = await Promise.all([this.ffmpeg.probe(path, { signal }), this.media.storage.stat(key)]);
      return {
        container: p.formatName,
        videoCodec: p.videoCodec ?? '',
        audioCodec: p.audioCodec,
        durationSec: p.durationSec,
        width: p.width,
        height: p.height,
        fps: p.fps,
        sizeBytes: st?.size ?? 0,
      };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** An absolute, signed, expiring link at PUBLIC_URL (the platform's servers fetch it, with Range). */
  publicLink(key: string, now = Date.now()): string {
    return `${this.publicUrl()}${this.media.signer.url(key, now)}`;
  }
}
