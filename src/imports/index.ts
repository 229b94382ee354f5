import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';

const ImportPage = lazyScreen(() => import('./ImportPage'), 'ImportPage');

/** Publications from CSV at /video/import (issue 21 item 4): a dry run, then all rows or none; and the export. */
export const importRoutes = [
  createElement(Route, { key: 'video-import', path: '/video/import', element: createElement(ImportPage) }),
];
