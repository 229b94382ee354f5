import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError, validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { $ZodType, safeParse } from 'zod/v4/core';
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

/**
 * The one serializer compiler (set in app.ts): an answer is parsed through its declared zod schema, which drops
 * every field the schema does not declare (a token, a sealed value, a hash), then stringified. The type
 * provider's own serializer encodes instead of parsing; response schemas here have no codecs, so both give
 * the same JSON, and zod's parse takes its compiled fast path, which keeps `GET /api/users` near its floor. A
 * schema may be written with zod or zod/mini (src/contract/http.ts): both are zod core schemas.
 */
export const serializerCompiler: FastifySerializerCompiler<$ZodType | { properties: $ZodType }> = ({
  schema,
  method,
  url,
}) => {
  const zod = schema instanceof $ZodType ? schema : schema.properties;
  return (data) => {
    const result = safeParse(zod, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
