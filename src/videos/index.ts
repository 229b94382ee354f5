import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';
import { loadRequestList } from '../firstScreen';

const VideoCreate = lazyScreen(() => import('./VideoCreate'), 'VideoCreate');
const RequestList = lazyScreen(loadRequestList, 'RequestList');
const RequestPage = lazyScreen(() => import('./RequestPage'), 'RequestPage');

/**
 * Video screens so far: /video/create (the create-video form), /video/request-create (the requests list) and
 * /video/request-create/{id} (one request, read-only, with its rendered videos).
 * They are custom routes at the SPEC paths; the list reads the "create-video" resource.
 */
export const videoRoutes = [
  createElement(Route, { key: 'video-create', path: '/video/create', element: createElement(VideoCreate) }),
  createElement(Route, { key: 'video-requests', path: '/video/request-create', element: createElement(RequestList) }),
  createElement(Route, {
    key: 'video-request-page',
    path: '/video/request-create/:id',
    element: createElement(RequestPage),
  }),
];
