/** Create-video requests: routes, service, render job (assembled by server/container.ts). */
export { createVideoRoutes } from './videos.routes';
export { VideosService } from './videos.service';
export { VideosRepository } from './videos.repository';
export { RenderCancels } from './render-cancels';
export { renderJob, renderJobKey, renderWorkRoot, videosJobWorkers } from './videos.jobs';
export { sweepWork } from './render.worker';
export { mediaRenderEngine } from './media-render-engine';
export type { RenderEngine } from './render-engine';
