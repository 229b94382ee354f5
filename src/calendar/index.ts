import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';
import { loadCalendarPage } from '../firstScreen';

// FullCalendar comes with this screen's chunk only (a cold /calendar starts loading it with the shell).
const CalendarPage = lazyScreen(loadCalendarPage, 'CalendarPage');

/** The calendar of posts at /calendar (issue 21 item 1). */
export const calendarRoutes = [
  createElement(Route, { key: 'calendar', path: '/calendar', element: createElement(CalendarPage) }),
];
