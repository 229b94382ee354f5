import type { VideoGenerator, VideoJobState, VideoRequest } from './video-generator';
import { videoCall, videoJson, videoStream, type VideoHttpOptions } from './http';

type OrVideo = { id: string; status: string; progress?: number; error?: string | { message?: string } };

/** Terminal and running states of OpenRouter's video API, in the shared vocabulary. */
const STATES: Record<string, VideoJobState['status']> = {
  pending: 'queued',
  queued: 'queued',
  in_progress: 'in_progress',
  processing: 'in_progress',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'failed',
};

/** OpenRouter's video API: POST {base}/videos → id, GET {base}/videos/{id}, GET {base}/videos/{id}/content?index=0. */
export class OpenRouterVideos implements VideoGenerator {
  constructor(private o: VideoHttpOptions) {}

  async create(r: VideoRequest) {
    const [w, h] = r.size.split('x').map(Number) as [number, number];
    const body = {
      model: r.model,
      prompt: r.prompt,
      duration: r.seconds,
      size: r.size,
      aspect_ratio: w < h ? '9:16' : w > h ? '16:9' : '1:1',
    };
    const v = await videoJson<OrVideo>(await videoCall(this.o, 'POST', '/videos', { json: body }));
    return { jobId: v.id };
  }

  async get(jobId: string): Promise<VideoJobState> {
    const v = await videoJson<OrVideo>(await videoCall(this.o, 'GET', `/videos/${encodeURIComponent(jobId)}`));
    const error = typeof v.error === 'string' ? v.error : v.error?.message;
    return { status: STATES[v.status] ?? 'in_progress', progress: v.progress ?? 0, ...(error ? { error } : {}) };
  }

  async download(jobId: string) {
    return videoStream(await videoCall(this.o, 'GET', `/videos/${encodeURIComponent(jobId)}/content?index=0`));
  }
}
