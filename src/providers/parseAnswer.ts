import type { $ZodError, $ZodType, output } from 'zod/v4/core';

/** A contract schema of an answer, written with zod or zod/mini (src/contract/http.ts): both parse with `.safeParse`. */
export type AnswerSchema<T = unknown> = $ZodType<T> & {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: $ZodError };
};

/**
 * An answer without the contract's shape: panel and server disagree (a bug, not something the user did). Its
 * message is react-admin's "data provider error" key; the mismatch itself goes to the console.
 */
export class ContractError extends Error {
  constructor(
    /** The call: method and URL. */
    public readonly call: string,
    cause: $ZodError,
  ) {
    super('ra.notification.data_provider_error', { cause });
  }
}

/**
 * An API answer through the contract's schema of it: the one place an answer becomes a typed value. A mismatch
 * is a ContractError.
 */
export function parseAnswer<S extends AnswerSchema>(schema: S, call: string, answer: unknown): output<S> {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data as output<S>;
  console.error(`${call}: the answer does not match the contract`, parsed.error.issues);
  throw new ContractError(call, parsed.error);
}
