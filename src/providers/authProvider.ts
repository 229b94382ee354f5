import type { AuthProvider } from 'ra-core';
import type { LoginInput, LoginResponse } from '../contract/auth';
import { readAuth, signIn, signOut } from './authStore';
import { currentLocale } from './locale';

export class LoginError extends Error {
  constructor(
    message: string,
    public errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** POST /api/auth/login; a failure carries the response message (SPEC §8). */
export async function loginRequest(input: LoginInput): Promise<LoginResponse> {
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLocale() },
    body: JSON.stringify(input),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new LoginError(body.message ?? res.statusText, body.errors);
  signIn(body.user, body.accessToken, body.refreshToken);
  return body;
}

/** Revokes the refresh token on the server (best effort) and clears the local state. */
export async function logoutRequest(): Promise<void> {
  const { refreshToken } = readAuth();
  signOut();
  if (!refreshToken) return;
  await fetch('/api/auth/logout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).catch(() => undefined);
}

export const authProvider: AuthProvider = {
  login: async (input: LoginInput) => {
    await loginRequest(input);
  },
  logout: async () => {
    await logoutRequest();
  },
  // Resolves from the stored state; the server still checks every call, and a dead session ends on the first 401.
  checkAuth: async () => {
    if (!readAuth().refreshToken) throw new Error('ra.auth.auth_check_error');
  },
  checkError: async (error) => {
    if (error?.status === 401) {
      signOut();
      throw new Error('ra.notification.logged_out');
    }
  },
  getIdentity: async () => {
    const { user } = readAuth();
    if (!user) throw new Error('ra.auth.auth_check_error');
    return { id: user.id, fullName: user.login };
  },
  getPermissions: async () => readAuth().user?.role ?? null,
  canAccess: async ({ resource }) => resource !== 'users' || readAuth().user?.role === 'admin',
};
