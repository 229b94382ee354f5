import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { KadrToaster } from './common/ToastNotification';
import { Loading } from './layout/Loading';
import { readAuth } from './providers/authStore';
import { setLoggedOutHandler } from './providers/sessionEnd';
import { restoreLocale } from './providers/i18nProvider';
import { coreOnlyPage, startFirstData } from './providers/firstData';

const loadAdmin = () => import('./App');
const loadLogin = () => import('./LoginApp');
const AdminApp = lazy(loadAdmin);
const LoginApp = lazy(loadLogin);
const signedInNow = () => readAuth().isAuthenticated && !!readAuth().refreshToken;

/** Signed out: only the login form loads. Signed in: the whole panel. */
function Root() {
  const [signedIn, setSignedIn] = useState(signedInNow);
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
            onSignedIn={async () => {
              // First the path, since the panel's router reads it when its code loads. The panel's code and
              // messages load while the form still shows it is signing in.
              if (location.pathname === '/login') history.replaceState(null, '', '/');
              await Promise.allSettled([
                restoreLocale('panel', { coreOnly: coreOnlyPage(location.pathname) }),
                loadAdmin(),
              ]);
              setSignedIn(true);
            }}
          />
        )}
      </Suspense>
    </>
  );
}

// The first screen's code loads alongside the language's messages, not after them; signed in, so does the code of
// the screen at this path, not after the shell has rendered (its table is a small chunk of its own: the sign-in
// page does not load it).
// Signed in, the list's first page and the contracts that parse the first answers are asked for now too
// (src/providers/firstData.ts), not once the list has rendered.
const signedIn = signedInNow();
const firstLoad = Promise.allSettled([
  restoreLocale(signedIn ? 'panel' : 'signIn', { coreOnly: coreOnlyPage(location.pathname) }),
  signedIn ? loadAdmin() : loadLogin(),
]);
if (signedIn) {
  void import('./firstScreen').then((m) => m.preloadScreen(location.pathname));
  startFirstData(location);
}
firstLoad.finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
});
