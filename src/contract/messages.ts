/**
 * Validation and error messages are i18n keys. The panel translates them with the current locale;
 * the server translates them by the request's Accept-Language (Ukrainian by default).
 */
export const M = {
  required: 'kadr.validation.required',
  tooShort: 'kadr.validation.too_short',
  tooLong: 'kadr.validation.too_long',
  passwordsMismatch: 'kadr.validation.passwords_mismatch',
  /** A value of the wrong type or outside a fixed set, where the schema has no message of its own. */
  invalidValue: 'kadr.validation.invalid_value',
  invalidCredentials: 'kadr.errors.invalid_credentials',
  tooManyAttempts: 'kadr.errors.too_many_attempts',
  unauthorized: 'kadr.errors.unauthorized',
  forbidden: 'kadr.errors.forbidden',
  notFound: 'kadr.errors.not_found',
  invalidRefresh: 'kadr.errors.invalid_refresh',
  loginTaken: 'kadr.errors.login_taken',
  cannotDeleteSelf: 'kadr.errors.cannot_delete_self',
  cannotDeleteLastAdmin: 'kadr.errors.cannot_delete_last_admin',
  cannotDemoteLastAdmin: 'kadr.errors.cannot_demote_last_admin',
  wrongCurrentPassword: 'kadr.errors.wrong_current_password',
  validation: 'kadr.errors.validation',
  server: 'kadr.errors.server',
  invalidId: 'kadr.errors.invalid_id',
  invalidPage: 'kadr.errors.invalid_page',
  malformedBody: 'kadr.errors.malformed_body',
} as const;
