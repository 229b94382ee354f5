import { localStorageStore, type Store } from 'ra-core';

/** The store's keys that a logout keeps: the light or dark theme is the device's choice, as the language is. */
const KEPT_AT_LOGOUT = ['theme'];

const stored = localStorageStore('1', 'Kadr');

/**
 * react-admin's store (list params, sidebar, the chosen language and theme), kept in localStorage. The signed-out
 * login form uses it too, so the language chosen there is the one the panel opens in, and the form wears the
 * theme chosen in the panel. A logout resets it (react-admin's useLogout), except for the keys above.
 */
export const store: Store = {
  ...stored,
  reset: () => {
    const kept = KEPT_AT_LOGOUT.map((key) => [key, stored.getItem(key)] as const);
    stored.reset();
    for (const [key, value] of kept) if (value !== undefined) stored.setItem(key, value);
  },
};
