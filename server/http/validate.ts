import type { z } from 'zod';
import { M } from '../../src/contract/messages';
import { toId } from '../../src/contract/ids';
import { AppError } from './errors';

/** The path of the first string holding a NUL character (PostgreSQL text cannot store one), if any. */
export function nulPath(v: unknown, path: string[] = []): string | undefined {
  if (typeof v === 'string') return v.includes('\u0000') ? path.join('.') || 'body' : undefined;
  if (!v || typeof v !== 'object' || path.length > 8) return undefined;
  for (const [k, x] of Object.entries(v)) {
    const found = nulPath(x, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** Parses input with a contract schema; a failure is a 400 naming each bad field (first message per field). */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const nul = nulPath(input);
  if (nul) throw new AppError(400, M.validation, { [nul]: M.invalidValue });
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
