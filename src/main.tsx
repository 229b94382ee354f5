// First: src/boot.ts starts the first screen's chunks and request before the modules below (React DOM) run.
import './boot';
import { StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { KadrToaster } from './common/ToastNotification';
import { Loading } from './layout/Loading';
import { readAuth } from './providers/authStore';
import { setLoggedOutHandler } from './providers/sessionEnd';
import { restoreLocale } from './providers/i18nProvider';
import { lazyScreen, rememberedLoad } from './common/lazyScreen';
import { coreOnlyPage } from './providers/firstData';
// The sign-in form comes with this file: a signed-out page loads in one wave, not the form's files after this one's
// (a signed-in page loads under 1 KB more for it: what else the form needs, the panel needs too).
import LoginApp from './LoginApp';

const loadAdmin = rememberedLoad(() => import('./App'));
// Loaded before the first render (below): drawn at once, not after React's 300 ms hold on a suspended one. The shell
// shows the core part of the messages only (each screen brings the rest: lazyScreen); the sign-in form its own few.
const AdminApp = lazyScreen(loadAdmin, 'default', { coreOnly: true });
const signedInNow = () => readAuth().isAuthenticated && !!readAuth().refreshToken;

/** Signed out: the login form. Signed in: the whole panel. */
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
// Signed in, the page's first request (a list's first page, the dashboard, the calendar's month) went out before
// this module loaded, from src/boot.ts (the page's first script), which started these same chunks too.
const signedIn = signedInNow();
// The panel is drawn once the screen's code is in too: a screen that arrived after the shell's first render would
// be held back by React until 300 ms after its loading fallback showed (its throttle of Suspense reveals).
const firstScreen = signedIn ? import('./firstScreen').then((m) => m.preloadScreen(location.pathname)) : undefined;
Promise.allSettled([
  restoreLocale(signedIn ? 'panel' : 'signIn', { coreOnly: coreOnlyPage(location.pathname) }),
  signedIn ? loadAdmin() : undefined,
  firstScreen,
]).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
});
