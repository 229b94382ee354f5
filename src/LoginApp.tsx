import { I18nContextProvider, StoreContextProvider } from 'ra-core';
import { LoginPage } from './layout/LoginPage';
import { signInStep } from './providers/authProvider';
import { i18nProvider } from './providers/i18nProvider';
import { store } from './providers/store';

/**
 * What a signed-out visitor loads: the login form without react-admin's UI, so /login stays small.
 * After signing in, the panel is loaded in place at the same URL. The panel's store carries the language
 * chosen here, as it carries the one chosen in Settings.
 */
export default function LoginApp({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  return (
    <StoreContextProvider value={store}>
      <I18nContextProvider value={i18nProvider}>
        <LoginPage
          onSubmit={async (v) => {
            await signInStep(v);
            await onSignedIn();
          }}
        />
      </I18nContextProvider>
    </StoreContextProvider>
  );
}
