import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance, FastifyReply } from 'fastify';

const run = promisify(execFile);

/** The word in a prompt that makes a simulated generation fail. */
export const SIM_FAIL_WORD = 'FAILVIDEO';

type SimVideo = {
  id: string;
  prompt: string;
  model: string;
  seconds: string;
  size: string;
  polls: number;
  remixed_from_video_id: string | null;
  created_at: number;
};

/** A real small MP4 (and a JPEG thumbnail) made once by ffmpeg, like a provider's result. */
export function simMedia(ffmpegPath: string) {
  let made: Promise<{ mp4: Buffer; jpg: Buffer }> | undefined;
  return () =>
    (made ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'kadr-ai-sim-'));
      const mp4 = join(dir, 'video.mp4');
      const jpg = join(dir, 'thumb.jpg');
      const q = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
      // 4 s of 720x1280 H.264 with an AAC tone: what every platform's pre-flight gate accepts.
      const src = [
        '-f',
        'lavfi',
        '-i',
        'color=c=black:s=720x1280:d=4:r=24',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=4',
      ];
      const enc = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'];
      await run(ffmpegPath, [...q, ...src, ...enc, '-movflags', '+faststart', mp4]);
      await run(ffmpegPath, [...q, '-i', mp4, '-frames:v', '1', jpg]);
      return { mp4: await readFile(mp4), jpg: await readFile(jpg) };
    })());
}

/**
 * The video endpoints: `/v1/videos` (and `/videos`) as OpenAI's Sora API had them (multipart or JSON create,
 * queued → in_progress → completed | failed, content?variant=, remix, list, delete) and OpenRouter's
 * `/api/v1/videos` (+ /{id}, /{id}/content?index=0). Each status read moves a job one step on.
 */
export function videoRoutes(app: FastifyInstance, media: () => Promise<{ mp4: Buffer; jpg: Buffer }>) {
  const videos = new Map<string, SimVideo>();
  let next = 1;
  const state = (v: SimVideo) => {
    const failed = v.prompt.includes(SIM_FAIL_WORD);
    if (v.polls === 0) return { status: 'queued', progress: 0 };
    if (v.polls === 1) return { status: 'in_progress', progress: 50 };
    return failed ? { status: 'failed', progress: 100 } : { status: 'completed', progress: 100 };
  };
  const view = (v: SimVideo) => {
    const s = state(v);
    return {
      id: v.id,
      object: 'video',
      model: v.model,
      prompt: v.prompt,
      seconds: v.seconds,
      size: v.size,
      remixed_from_video_id: v.remixed_from_video_id,
      created_at: v.created_at,
      ...s,
      error: s.status === 'failed' ? { code: 'generation_failed', message: 'The simulated generation failed' } : null,
    };
  };
  const create = (body: Record<string, unknown>, from: string | null = null): SimVideo => {
    const v: SimVideo = {
      id: `video_${next++}`,
      prompt: String(body.prompt ?? ''),
      model: String(body.model ?? 'sim-video'),
      seconds: String(body.seconds ?? body.duration ?? '4'),
      size: String(body.size ?? '720x1280'),
      polls: 0,
      remixed_from_video_id: from,
      created_at: Math.floor(Date.now() / 1000),
    };
    videos.set(v.id, v);
    return v;
  };
  const find = (id: string, reply: FastifyReply) => {
    const v = videos.get(id);
    if (!v) void reply.status(404).send({ error: { message: 'Video not found', type: 'invalid_request_error' } });
    return v;
  };
  const content = async (v: SimVideo, reply: FastifyReply, thumbnail: boolean) => {
    if (state(v).status !== 'completed')
      return reply.status(400).send({ error: { message: 'Video is not ready', type: 'invalid_request_error' } });
    const m = await media();
    return reply.type(thumbnail ? 'image/jpeg' : 'video/mp4').send(thumbnail ? m.jpg : m.mp4);
  };

  for (const base of ['', '/v1']) {
    app.post(`${base}/videos`, async (req) => view(create(req.body as Record<string, unknown>)));
    app.get(`${base}/videos`, async () => ({ object: 'list', data: [...videos.values()].map(view), has_more: false }));
    app.get<{ Params: { id: string } }>(`${base}/videos/:id`, async (req, reply) => {
      const v = find(req.params.id, reply);
      if (!v) return reply;
      const out = view(v);
      v.polls++;
      return out;
    });
    app.delete<{ Params: { id: string } }>(`${base}/videos/:id`, async (req, reply) => {
      if (!find(req.params.id, reply)) return reply;
      videos.delete(req.params.id);
      return { id: req.params.id, deleted: true, object: 'video.deleted' };
    });
    app.get<{ Params: { id: string }; Querystring: { variant?: string } }>(
      `${base}/videos/:id/content`,
      async (req, reply) => {
        const v = find(req.params.id, reply);
        return v ? content(v, reply, req.query.variant === 'thumbnail') : reply;
      },
    );
    app.post<{ Params: { id: string } }>(`${base}/videos/:id/remix`, async (req, reply) => {
      const v = find(req.params.id, reply);
      if (!v) return reply;
      const body = req.body as Record<string, unknown>;
      return view(create({ ...v, prompt: body.prompt ?? v.prompt }, v.id));
    });
  }

  // OpenRouter's shape.
  app.post('/api/v1/videos', async (req, reply) => {
    const v = create(req.body as Record<string, unknown>);
    return reply.status(202).send({ id: v.id, polling_url: `/api/v1/videos/${v.id}`, status: 'pending' });
  });
  app.get<{ Params: { id: string } }>('/api/v1/videos/:id', async (req, reply) => {
    const v = find(req.params.id, reply);
    if (!v) return reply;
    const s = state(v);
    v.polls++;
    const status = s.status === 'queued' ? 'pending' : s.status;
    return {
      id: v.id,
      status,
      progress: s.progress,
      ...(s.status === 'failed' ? { error: 'The simulated generation failed' } : {}),
    };
  });
  app.get<{ Params: { id: string } }>('/api/v1/videos/:id/content', async (req, reply) => {
    const v = find(req.params.id, reply);
    return v ? content(v, reply, false) : reply;
  });
  return videos;
}
