/** Live updates and the bell: the streams (following the event bus), notifications (assembled by server/container.ts). */
export { LiveRepository } from './live.repository';
export { LiveHub } from './live.hub';
export { LiveService } from './live.service';
export { LiveStreams } from './live.stream';
export { liveRoutes } from './live.routes';
export { liveNotices } from './live.notices';
