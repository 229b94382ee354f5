import type { AuthUser } from '../contract/auth';

/** SPEC §3 client auth state, persisted in localStorage under "authStore", version 1. */
export type AuthState = {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | null;
  accessToken: string | null;
  refreshToken: string | null;
};

export const AUTH_STORE_KEY = 'authStore';
export const AUTH_STORE_VERSION = 1;

const empty: AuthState = {
  isLoading: false,
  isAuthenticated: false,
  user: null,
  accessToken: null,
  refreshToken: null,
};

export function readAuth(): AuthState {
  try {
    const raw = JSON.parse(localStorage.getItem(AUTH_STORE_KEY) ?? 'null');
    if (raw?.version !== AUTH_STORE_VERSION || !raw.state) return { ...empty };
    return { ...empty, ...raw.state };
  } catch {
    return { ...empty };
  }
}

export function writeAuth(patch: Partial<AuthState>): AuthState {
  const next = { ...readAuth(), ...patch };
  localStorage.setItem(AUTH_STORE_KEY, JSON.stringify({ state: next, version: AUTH_STORE_VERSION }));
  return next;
}

export const signIn = (user: AuthUser, accessToken: string, refreshToken: string) =>
  writeAuth({ isLoading: false, isAuthenticated: true, user, accessToken, refreshToken });

export const signOut = () => writeAuth({ ...empty });
