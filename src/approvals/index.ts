import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { AccessDenied, CanAccess } from 'react-admin';
import { lazyScreen } from '../common/lazyScreen';

const ApprovalsPage = lazyScreen(() => import('./ApprovalsPage'), 'ApprovalsPage');

/**
 * The admins' list of posts awaiting approval at /approvals (issue 23 item 3): another user gets the panel's
 * "access denied" screen, as on the other admin-only screens (canAccess), without asking; the server refuses them too.
 */
export const approvalRoutes = [
  createElement(Route, {
    key: 'approvals',
    path: '/approvals',
    element: createElement(CanAccess, {
      resource: 'approvals',
      action: 'list',
      accessDenied: createElement(AccessDenied),
      children: createElement(ApprovalsPage),
    }),
  }),
];
