/**
 * Machine-readable reasons some refusals carry in the error answer's `code` (src/contract/http.ts ErrorSchema),
 * for clients that act on them: the panel, a script. Kept apart from the schemas (no zod) so the HTTP client
 * reads them without loading a contract module.
 */
export const ERROR_CODES = {
  /** 403: an admin requires two-factor sign-in and this user has not turned it on: only enrolment is open. */
  enrolTwoFactor: 'two_factor_enrolment_required',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
