import { localStorageStore } from 'ra-core';

/**
 * react-admin's store (list params, sidebar, the chosen language), kept in localStorage. The signed-out login
 * form uses it too, so the language chosen there is the one the panel opens in.
 */
export const store = localStorageStore('1', 'Kadr');
