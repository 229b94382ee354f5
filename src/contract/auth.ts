import { z } from 'zod';
import { M } from './messages';
import { ROLES } from './roles';

const bounded = (min: number, max: number) =>
  z.string({ error: M.required }).min(1, M.required).min(min, M.tooShort).max(max, M.tooLong);

/** SPEC §5 login form: login 2–50, password 5–50. */
export const LoginSchema = z
  .object({
    login: bounded(2, 50),
    password: bounded(5, 50),
  })
  .meta({ example: { login: 'admin', password: 'change-me' } });
export type LoginInput = z.infer<typeof LoginSchema>;

export const RefreshSchema = z.object({ refreshToken: z.string({ error: M.required }).min(1, M.required) });

/** Logout and password change may name the session to keep or end (optional; anything else is ignored). */
export const SessionTokenSchema = z.object({
  refreshToken: z
    .unknown()
    .transform((v) => (typeof v === 'string' ? v : undefined))
    .optional()
    .meta({ type: 'string', description: 'The refresh token of this session' }),
});

export const AuthUserSchema = z
  .object({ id: z.number().int(), login: z.string(), role: z.enum(ROLES) })
  .meta({ id: 'AuthUser', example: { id: 1, login: 'admin', role: 'admin' } });
export type AuthUser = z.infer<typeof AuthUserSchema>;

const tokens = {
  accessToken: z.string().meta({ description: 'Bearer JWT, short-lived', example: 'eyJhbGciOi…' }),
  refreshToken: z.string().meta({ description: 'Opaque, rotated on every refresh', example: 'f3a9…' }),
};
/** The panel's interface languages. */
export const LANGUAGES = ['uk', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** PUT /api/auth/language: the signed-in user's interface language, the one the panel opens in on any browser. */
export const LanguageSchema = z
  .object({ language: z.enum(LANGUAGES, { error: M.invalidValue }) })
  .meta({ example: { language: 'en' } });

export const LoginResponseSchema = z.object({
  user: AuthUserSchema,
  ...tokens,
  language: z
    .enum(LANGUAGES)
    .nullable()
    .optional()
    .meta({ description: 'The interface language the user chose (null: none yet): the panel opens in it' }),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** The password step of a user with two-factor sign-in on: the challenge for the second step (5 minutes). */
export const LoginChallengeSchema = z
  .object({ twoFactor: z.literal(true), challenge: z.string() })
  .meta({ id: 'LoginChallenge', description: 'POST it with a code to /api/auth/login/code' });
/** What the password step answers: tokens (with `enrolTwoFactor` when an admin requires 2FA), or a challenge. */
export const LoginAnswerSchema = z.union([
  LoginResponseSchema.extend({
    enrolTwoFactor: z.boolean().optional().meta({ description: 'An admin requires 2FA: enrol now' }),
  }),
  LoginChallengeSchema,
]);
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;
export const RefreshResponseSchema = z.object({ user: AuthUserSchema, ...tokens });
export type RefreshResponse = { accessToken: string; refreshToken: string };
