import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';
import { loadYouTubeList } from '../firstScreen';

const YouTubeList = lazyScreen(loadYouTubeList, 'YouTubeList');
const PublishForm = lazyScreen(() => import('./PublishForm'), 'PublishForm');
const PublicationDetail = lazyScreen(() => import('./PublicationDetail'), 'PublicationDetail');

/**
 * Publishing screens at the SPEC §2 paths: /video/list (the YouTube list), /video/request/{idUpload} (the
 * publish form of a finished request; /ai/video/{id}/publish the same form for an AI video) and
 * /video/youtube/{idUpload} (a publication). They read the publications (API.publications) and the rendered
 * videos of a request (the dataProvider's renderRequest).
 */
export const publicationRoutes = [
  createElement(Route, { key: 'video-list', path: '/video/list', element: createElement(YouTubeList) }),
  createElement(Route, { key: 'video-publish', path: '/video/request/:idUpload', element: createElement(PublishForm) }),
  // An AI video's Publish opens the same form, prefilled (under /ai/video, so that menu item stays open).
  createElement(Route, {
    key: 'ai-video-publish',
    path: '/ai/video/:aiId/publish',
    element: createElement(PublishForm),
  }),
  createElement(Route, {
    key: 'video-publication',
    path: '/video/youtube/:idUpload',
    element: createElement(PublicationDetail),
  }),
];
