import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';

const VideoCreate = lazyScreen(() => import('./VideoCreate'), 'VideoCreate');
const RequestList = lazyScreen(() => import('./RequestList'), 'RequestList');

/**
 * Video screens so far: /video/create (the create-video form) and /video/request-create (the requests list).
 * They are custom routes at the SPEC paths; the list reads the "create-video" resource (/api/create-video).
 */
export const videoRoutes = [
  createElement(Route, { key: 'video-create', path: '/video/create', element: createElement(VideoCreate) }),
  createElement(Route, { key: 'video-requests', path: '/video/request-create', element: createElement(RequestList) }),
];
