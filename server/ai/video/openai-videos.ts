import { FormData } from 'undici';
import type { VideoGenerator, VideoJobState, VideoRequest } from './video-generator';
import { videoCall, videoJson, videoStream, type VideoHttpOptions } from './http';

type OaVideo = { id: string; status: VideoJobState['status']; progress?: number; error?: { message?: string } | null };

/**
 * The `/v1/videos` wire format (OpenAI's Sora API, shut down on 2026-09-24; gateways still serve it with
 * other models): multipart create, retrieve, content?variant=video, remix.
 */
export class OpenAiVideos implements VideoGenerator {
  constructor(private o: VideoHttpOptions) {}

  async create(r: VideoRequest) {
    const form = new FormData();
    form.set('prompt', r.prompt);
    form.set('model', r.model);
    form.set('seconds', String(r.seconds));
    form.set('size', r.size);
    const v = await videoJson<OaVideo>(await videoCall(this.o, 'POST', '/videos', { form }));
    return { jobId: v.id };
  }

  async get(jobId: string): Promise<VideoJobState> {
    const v = await videoJson<OaVideo>(await videoCall(this.o, 'GET', `/videos/${encodeURIComponent(jobId)}`));
    const error = v.error?.message;
    return { status: v.status, progress: v.progress ?? 0, ...(error ? { error } : {}) };
  }

  async download(jobId: string) {
    return videoStream(await videoCall(this.o, 'GET', `/videos/${encodeURIComponent(jobId)}/content?variant=video`));
  }

  async remix(jobId: string, prompt: string) {
    const v = await videoJson<OaVideo>(
      await videoCall(this.o, 'POST', `/videos/${encodeURIComponent(jobId)}/remix`, { json: { prompt } }),
    );
    return { jobId: v.id };
  }
}
