import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db, DbKind } from '../db/index';
import type { Media } from '../media/storage/index';
import { JobQueue } from '../jobs/index';
import { renderWorkRoot } from '../jobs/workers';
import { Ffmpeg } from '../media/ffmpeg/ffmpeg';
import { VideosRepository } from './videos.repository';
import { VideosService } from './videos.service';
import { createVideoRoutes } from './videos.routes';

/** Create-video requests: API routes (the render worker is started by main.ts through server/jobs/workers.ts). */
export async function videosPlugin(app: FastifyInstance, { db, dbKind, config, media }: { db: Db; dbKind: DbKind; config: Config; media: Media }) {
  const ffmpeg = new Ffmpeg(config);
  const videos = new VideosService(new VideosRepository(db), {
    db, media, queue: new JobQueue(db, dbKind), isVideo: (p) => ffmpeg.isVideo(p), workRoot: renderWorkRoot(config.dataDir), log: app.log,
  });
  await app.register(createVideoRoutes, { videos });
}
