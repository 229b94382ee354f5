import type { AuthProvider } from 'ra-core';
import type { LoginInput, LoginResponse } from '../contract/auth';
import type { LoginCodeInput } from '../contract/two-factor';
import { API } from '../contract/endpoints';
import { readAuth, signIn, signOut } from './authStore';
import { contract } from './contract';
import { setMustEnrol } from './enrolment';
import { currentLocale } from './locale';
import { parseAnswer } from './parseAnswer';
import { adoptLanguage } from './userLanguage';

export class LoginError extends Error {
  constructor(
    message: string,
    public errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The password was right and the user has two-factor sign-in on: the form asks for a code next. */
export class TwoFactorNeeded extends Error {
  constructor(public challenge: string) {
    super('two-factor');
  }
}

async function post(url: string, input: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLocale() },
    body: JSON.stringify(input),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new LoginError(body.message ?? res.statusText, body.errors);
  return body;
}

/**
 * Signs in with login and password; a failure carries the response message and field errors (SPEC §8). A user
 * with two-factor sign-in on gets TwoFactorNeeded (the challenge for `loginCodeRequest`) instead.
 */
export async function loginRequest(input: LoginInput): Promise<LoginResponse> {
  // The answer's schema first (the sign-in form has loaded it for its own rules already).
  const { LoginAnswerSchema } = await contract.auth();
  const answer = parseAnswer(LoginAnswerSchema, `POST ${API.auth.login}`, await post(API.auth.login, input));
  if ('challenge' in answer) throw new TwoFactorNeeded(answer.challenge);
  setMustEnrol(!!answer.enrolTwoFactor);
  signIn(answer.user, answer.accessToken, answer.refreshToken);
  adoptLanguage(answer);
  return answer;
}

/** The second step: the challenge and a code from the authenticator app (or a recovery code). */
export async function loginCodeRequest(input: LoginCodeInput): Promise<LoginResponse> {
  const { LoginResponseSchema } = await contract.auth();
  const answer = parseAnswer(LoginResponseSchema, `POST ${API.auth.loginCode}`, await post(API.auth.loginCode, input));
  setMustEnrol(false);
  signIn(answer.user, answer.accessToken, answer.refreshToken);
  adoptLanguage(answer);
  return answer;
}

/** Either step of the sign-in form. */
export type SignInStep = LoginInput | LoginCodeInput;
export const signInStep = (v: SignInStep) => ('challenge' in v ? loginCodeRequest(v) : loginRequest(v));

/** Revokes the refresh token on the server (best effort) and clears the local state. */
export async function logoutRequest(): Promise<void> {
  const { refreshToken } = readAuth();
  signOut();
  setMustEnrol(false);
  if (!refreshToken) return;
  await fetch(API.auth.logout, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).catch(() => undefined);
}

/** The resources only an admin opens (the server answers a user 403 on their API as well). */
const ADMIN_RESOURCES = ['users', 'jobs', 'audit', 'approvals'];

export const authProvider: AuthProvider = {
  login: async (input: SignInStep) => {
    await signInStep(input);
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
