import './common/zodWithoutEval';
import { CoreAdminUI } from 'ra-core';
import { AccessDenied, AdminContext, AuthenticationError, CustomRoutes, Error, Resource } from 'react-admin';
import { CssBaseline } from '@mui/material';
import { Navigate, Route, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { i18nProvider } from './providers/i18nProvider';
import { store } from './providers/store';
import { Layout } from './layout/Layout';
import { NotFound } from './layout/NotFound';
import { Loading } from './layout/Loading';
import { ToastBridge } from './common/ToastNotification';
import { darkTheme, theme } from './common/theme';
import users from './users';
import jobs from './jobs';
import audit from './audit';
import accounts from './accounts';
import groups from './groups';
import tags from './tags';
import backgrounds from './backgrounds';
import { videoRoutes } from './videos';
import { publicationRoutes } from './publications';
import { calendarRoutes } from './calendar';
import { approvalRoutes } from './approvals';
import { analyticsRoutes } from './analytics';
import { importRoutes } from './imports';
import { aiRoutes } from './ai';
import { lazyScreen } from './common/lazyScreen';
import { loadSettingsPage } from './firstScreen';
import { withNotFound } from './common/withNotFound';

const SettingsPage = lazyScreen(loadSettingsPage, 'SettingsPage');
// The login form after a logout loads when it is shown: a signed-in page does not need it.
const AdminLoginPage = lazyScreen(() => import('./layout/AdminLoginPage'), 'AdminLoginPage', { coreOnly: true });
// Detail pages of an id that does not exist, or is another user's, show the 404 screen (the users page reads
// with meta fullBody).
const UserEdit = withNotFound(users.edit, { fullBody: true });
const AccountEdit = withNotFound(accounts.edit);
const GroupEdit = withNotFound(groups.edit);
const TagSetEdit = withNotFound(tags.edit);
// Another user's folder (or none) by URL: the 404 screen, not an empty folder with a 'Create' button.
const FolderPage = withNotFound(backgrounds.edit);

/** The index route: a loading placeholder that moves on to the first menu entry. */
const Index = () => (
  <>
    <Loading />
    <Navigate to="/accounts/list" replace />
  </>
);

/**
 * react-admin's <Admin>, put together from its parts with the panel's own pages: <Admin> also brings its own
 * login form, notification, layout and English messages as defaults, which the panel replaces, so they would
 * only weigh on every signed-in page. Light or dark theme (issue 22): the one chosen in the app bar (ThemeToggle),
 * else the system's; no `defaultTheme`, which would override the system's preference.
 */
const KadrAdmin = () => (
  <AdminContext
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    store={store}
    theme={theme}
    darkTheme={darkTheme}
  >
    <CssBaseline enableColorScheme>
      <CoreAdminUI
        layout={Layout}
        loginPage={AdminLoginPage}
        catchAll={NotFound}
        loading={Loading}
        dashboard={Index}
        accessDenied={AccessDenied}
        authenticationError={AuthenticationError}
        error={Error}
        requireAuth
        disableTelemetry
      >
        <Resource name="users" {...users} edit={UserEdit} />
        <Resource name="jobs" {...jobs} />
        <Resource name="audit" {...audit} />
        <Resource name="accounts" {...accounts} edit={AccountEdit} />
        <Resource name="accounts/group" {...groups} edit={GroupEdit} />
        <Resource name="tags" {...tags} edit={TagSetEdit} />
        <Resource name="photos" {...backgrounds} edit={FolderPage} />
        <CustomRoutes>
          <Route path="/setting" element={<SettingsPage />} />
          {videoRoutes}
          {publicationRoutes}
          {calendarRoutes}
          {approvalRoutes}
          {analyticsRoutes}
          {importRoutes}
          {aiRoutes}
        </CustomRoutes>
      </CoreAdminUI>
      <ToastBridge />
    </CssBaseline>
  </AdminContext>
);

// Real paths (/users/5, /users?page=2): react-admin runs inside our browser router, made once, when the panel is
// first drawn: a router reads the address when it is made, and this module may load before signing in moves the
// page from /login.
let router: ReturnType<typeof createBrowserRouter> | undefined;

export default function App() {
  router ??= createBrowserRouter([{ path: '*', element: <KadrAdmin /> }]);
  return <RouterProvider router={router} />;
}
