import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';

const ApprovalsPage = lazyScreen(() => import('./ApprovalsPage'), 'ApprovalsPage');

/** The admins' list of posts awaiting approval at /approvals (issue 23 item 3); the server refuses others. */
export const approvalRoutes = [
  createElement(Route, { key: 'approvals', path: '/approvals', element: createElement(ApprovalsPage) }),
];
