import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { KadrToaster } from './common/ToastNotification';
import { Loading } from './layout/Loading';
import { readAuth } from './providers/authStore';
import { setLoggedOutHandler } from './providers/httpClient';
import { restoreLocale } from './providers/i18nProvider';
import { config as zodConfig } from 'zod/v4/core';

// The panel runs under a Content-Security-Policy without 'unsafe-eval' (server/http/security-headers.ts): zod's
// compiled fast path would probe `new Function` and be reported as a violation. The server keeps the fast path.
zodConfig({ jitless: true });

const AdminApp = lazy(() => import('./App'));
const LoginApp = lazy(() => import('./LoginApp'));

/** Signed out: only the login form loads. Signed in: the whole panel. */
function Root() {
  const [signedIn, setSignedIn] = useState(() => readAuth().isAuthenticated && !!readAuth().refreshToken);
  // A session that ends outside react-admin's checks (a refused refresh in an upload, another tab signing out)
  // shows the sign-in form at once.
  useEffect(() => {
    setLoggedOutHandler(() => setSignedIn(false));
    const onStorage = () => {
      if (!readAuth().refreshToken) setSignedIn(false);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return (
    <>
      <KadrToaster />
      <Suspense fallback={<Loading />}>
        {signedIn ? (
          <AdminApp />
        ) : (
          <LoginApp
            onSignedIn={() => {
              if (location.pathname === '/login') history.replaceState(null, '', '/');
              setSignedIn(true);
            }}
          />
        )}
      </Suspense>
    </>
  );
}

restoreLocale().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
});
