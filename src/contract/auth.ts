import { z } from 'zod';
import { M } from './messages';
import type { Role } from './roles';

const bounded = (min: number, max: number) =>
  z.string({ error: M.required }).min(1, M.required).min(min, M.tooShort).max(max, M.tooLong);

/** SPEC §5 login form: login 2–50, password 5–50. */
export const LoginSchema = z.object({
  login: bounded(2, 50),
  password: bounded(5, 50),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const RefreshSchema = z.object({ refreshToken: z.string({ error: M.required }).min(1, M.required) });

export type AuthUser = { id: number; login: string; role: Role };
export type LoginResponse = { user: AuthUser; accessToken: string; refreshToken: string };
export type RefreshResponse = { accessToken: string; refreshToken: string };
