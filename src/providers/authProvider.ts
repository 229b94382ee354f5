import type { AuthProvider } from 'ra-core';
import type { LoginInput, LoginResponse } from '../contract/auth';
import { API } from '../contract/endpoints';
import { readAuth, signIn, signOut } from './authStore';
import { contract } from './contract';
import { currentLocale } from './locale';
import { parseAnswer } from './parseAnswer';

export class LoginError extends Error {
  constructor(
    message: string,
    public errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Signs in; a failure carries the response message and field errors (SPEC §8). */
export async function loginRequest(input: LoginInput): Promise<LoginResponse> {
  // The answer's schema first (the sign-in form has loaded it for its own rules already).
  const { LoginResponseSchema } = await contract.auth();
  const res = await fetch(API.auth.login, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLocale() },
    body: JSON.stringify(input),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new LoginError(body.message ?? res.statusText, body.errors);
  const answer = parseAnswer(LoginResponseSchema, `POST ${API.auth.login}`, body);
  signIn(answer.user, answer.accessToken, answer.refreshToken);
  return answer;
}

/** Revokes the refresh token on the server (best effort) and clears the local state. */
export async function logoutRequest(): Promise<void> {
  const { refreshToken } = readAuth();
  signOut();
  if (!refreshToken) return;
  await fetch(API.auth.logout, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).catch(() => undefined);
}

/** The resources only an admin opens (the server answers a user 403 on their API as well). */
const ADMIN_RESOURCES = ['users', 'jobs'];

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
  canAccess: async ({ resource }) => !ADMIN_RESOURCES.includes(resource) || readAuth().user?.role === 'admin',
};
