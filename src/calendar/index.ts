import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';

// FullCalendar comes with this screen's chunk only.
const CalendarPage = lazyScreen(() => import('./CalendarPage'), 'CalendarPage');

/** The calendar of posts at /calendar (issue 21 item 1). */
export const calendarRoutes = [
  createElement(Route, { key: 'calendar', path: '/calendar', element: createElement(CalendarPage) }),
];
