import { HttpError } from 'ra-core';
import { errorBodyOf } from '../providers/errorBody';

/** The message a person should see for a failed call (SPEC §8): the response message, else the error's own. */
export function errorMessages(e: unknown, fallback: string): string[] {
  const body = (e as HttpError)?.body;
  const m = body?.message ?? (e as Error)?.message;
  if (Array.isArray(m)) return m.map(String);
  return [m ? String(m) : fallback];
}

/** The server's field errors of a failed call (field → message), when its answer names any. */
export function fieldErrorsOf(e: unknown): Record<string, string> | undefined {
  return e instanceof HttpError ? errorBodyOf(e.body)?.errors : undefined;
}
