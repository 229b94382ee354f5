import type { z } from 'zod';
import { M } from '../../src/contract/messages';
import { toId } from '../../src/contract/ids';
import { AppError } from './errors';

/** Parses input with a contract schema; a failure is a 400 naming each bad field (first message per field). */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    // Every message is an i18n key; zod's own English (a wrong type, an unknown option) becomes ours.
    errors[field] ??= issue.message.startsWith('kadr.') ? issue.message : M.invalidValue;
  }
  throw new AppError(400, M.validation, errors);
}

/** A positive integer route id; anything else is a 400 naming `id`, never a 500. */
export function parseId(raw: unknown, field = 'id'): number {
  const n = typeof raw === 'string' ? toId(raw) : -1;
  if (n < 1) throw new AppError(400, M.invalidId, { [field]: M.invalidId });
  return n;
}

/** `?page=n`, 1-based; missing means 1. */
export function parsePage(raw: unknown): number {
  if (raw === undefined || raw === '') return 1;
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new AppError(400, M.invalidPage, { page: M.invalidPage });
  return n;
}
