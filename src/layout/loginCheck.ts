import '../common/zodWithoutEval';
import { LoginSchema, type LoginInput } from '../contract/auth';

export type LoginErrors = Partial<Record<keyof LoginInput, string>>;

/**
 * The login form's rules (SPEC §5): each field's first message (an i18n key), none when the values pass. zod loads
 * with this file, on the form's first check, not with the page.
 */
export function checkLogin(values: LoginInput): LoginErrors {
  const result = LoginSchema.safeParse(values);
  const errors: LoginErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0] as keyof LoginInput;
    errors[field] ??= issue.message;
  }
  return errors;
}
