import { sql } from 'kysely';
import { ERROR_CODES } from '../../src/contract/error-codes';
import { TM } from '../../src/contract/two-factor';
import { AppError } from '../http/errors';
import { REQUIRE_TWO_FACTOR } from './two-factor.repository';

/**
 * While an admin requires two-factor sign-in (the `settings` row auth.require_two_factor), a user who has not
 * turned it on reaches only what enrolment needs: who they are, their 2FA state, and the two enrolment steps
 * (signing out and refreshing take no bearer, so they stay open too). Everything else, with a session's token or
 * one of their API keys, is a 403 whose `code` is ERROR_CODES.enrolTwoFactor: the panel then leads to Settings.
 * Matched on the route's pattern as registered (`req.routeOptions.url`); HEAD as GET.
 */
const ENROLMENT_ROUTES = new Set([
  'GET /api/auth/me',
  // The language too: a user who must enrol reads the Settings page in it.
  'PUT /api/auth/language',
  'GET /api/auth/two-factor',
  'POST /api/auth/two-factor/setup',
  'POST /api/auth/two-factor/enable',
]);

/** Throws the 403 when a user who must enrol asks for anything but enrolment. */
export function checkEnrolment(mustEnrol: boolean | undefined, method: string, route: string): void {
  if (!mustEnrol) return;
  const m = method === 'HEAD' ? 'GET' : method;
  if (ENROLMENT_ROUTES.has(`${m} ${route}`)) return;
  throw new AppError(403, TM.enrolRequired, undefined, {}, ERROR_CODES.enrolTwoFactor);
}

/**
 * A selection of a query joined with `users`: 1 when 2FA is required of everyone and this user has not turned it
 * on, else 0. Literals only (no bound parameters), so a query compiled once keeps its parameters' order.
 */
export const mustEnrolColumn = () =>
  sql<number>`CASE WHEN ${sql.ref('users.totpSecretSealed')} IS NULL AND EXISTS (SELECT 1 FROM ${sql.table(
    'settings',
  )} WHERE ${sql.ref('settings.key')} = ${sql.lit(REQUIRE_TWO_FACTOR)} AND ${sql.ref('settings.value')} = ${sql.lit(
    'true',
  )}) THEN 1 ELSE 0 END`.as('mustEnrol');
