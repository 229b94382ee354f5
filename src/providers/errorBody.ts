/** What a refused call's answer says (src/contract/http.ts ErrorSchema): its message and field errors. */
export type ErrorBody = { message?: string; errors?: Record<string, string> };

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
const isMessages = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((m) => typeof m === 'string');

/**
 * The message and field errors of a refused call's answer, each when it has the contract's shape. Read without
 * zod: failures are shown on screens that do not load it otherwise.
 */
export function errorBodyOf(body: unknown): ErrorBody | undefined {
  if (!isObject(body)) return undefined;
  const message = 'message' in body ? body.message : undefined;
  const errors = 'errors' in body ? body.errors : undefined;
  return {
    ...(typeof message === 'string' ? { message } : {}),
    ...(isMessages(errors) ? { errors } : {}),
  };
}
