import { StrictMode, Suspense, lazy, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { KadrToaster } from './common/ToastNotification';
import { Loading } from './layout/Loading';
import { readAuth } from './providers/authStore';
import { restoreLocale } from './providers/i18nProvider';

const AdminApp = lazy(() => import('./App'));
const LoginApp = lazy(() => import('./LoginApp'));

/** Signed out: only the login form loads. Signed in: the whole panel. */
function Root() {
  const [signedIn, setSignedIn] = useState(() => readAuth().isAuthenticated && !!readAuth().refreshToken);
  return (
    <>
      <KadrToaster />
      <Suspense fallback={<Loading />}>
        {signedIn ? <AdminApp /> : <LoginApp onSignedIn={() => {
          if (location.pathname === '/login') history.replaceState(null, '', '/');
          setSignedIn(true);
        }} />}
      </Suspense>
    </>
  );
}

restoreLocale().finally(() => {
  createRoot(document.getElementById('root')!).render(<StrictMode><Root /></StrictMode>);
});
