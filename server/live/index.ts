/** Live updates and the bell: events table tail, SSE streams, notifications (assembled by server/container.ts). */
export { LiveRepository } from './live.repository';
export { LiveHub } from './live.hub';
export { LiveService } from './live.service';
export { LiveStreams } from './live.stream';
export { liveRoutes } from './live.routes';
export { liveObservers } from './live.observers';
