import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';
import { loadAnalyticsPage } from '../firstScreen';

// MUI X Charts comes with these chunks only: the dashboard's, and the charts other screens show.
const AnalyticsPage = lazyScreen(loadAnalyticsPage, 'AnalyticsPage');
export const PublicationStats = lazyScreen(() => import('./PublicationStats'), 'PublicationStats');
export const ProfileStats = lazyScreen(() => import('./ProfileStats'), 'ProfileStats');
export const RequestVariants = lazyScreen(() => import('./RequestVariants'), 'RequestVariants');

/** The analytics dashboard at /analytics (issue 22). */
export const analyticsRoutes = [
  createElement(Route, { key: 'analytics', path: '/analytics', element: createElement(AnalyticsPage) }),
];
