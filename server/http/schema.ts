import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { M } from '../../src/contract/messages';
import { AppError } from './errors';
import { nulPath } from './validate';

/**
 * The one validator compiler (set in app.ts): the type provider's zod validation, after two rules that hold
 * for every route: a NUL character anywhere (body, query, path) is a 400 naming its field, on either
 * database; a missing body is validated as `{}`, so each required field is named rather than the body.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  const isBody = route.httpPart === 'body';
  return (data: unknown) => {
    const nul = nulPath(data);
    if (nul) return { error: new AppError(400, M.validation, { [nul]: M.invalidValue }) };
    return validate(isBody ? (data ?? {}) : data);
  };
};

/** Route schema keys for the API docs only. */
declare module 'fastify' {
  interface FastifySchema {
    /** The multipart fields of a streamed upload (no body schema: the route reads the parts itself). */
    multipartBody?: Record<string, unknown>;
  }
}
export type { FastifySchema };
