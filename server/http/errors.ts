import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { M } from '../../src/contract/messages';
import { LM } from '../../src/contract/list-queries';
import { decodeMessage } from '../../src/contract/stored-message';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { localeOf, translate } from './i18n';
import { CLIENT_GONE_CODES, FRAMEWORK_ERRORS, MULTIPART_PARSE_ERROR, REQUEST_ERRORS } from './request-errors';

/**
 * The one error the services throw. `message` and field messages are i18n keys (or plain text);
 * the error handler translates them into the caller's language.
 */
export class AppError extends Error {
  constructor(
    public statusCode: number,
    message: string,
    public errors?: Record<string, string>,
    public args: Record<string, string | number> = {},
    /** A machine-readable reason for clients that act on it (src/contract/error-codes.ts). */
    public code?: string,
  ) {
    super(message);
  }
}

/**
 * A 429: the answer carries `Retry-After` (whole seconds, at least 1), so a client or script knows when to come
 * back without parsing the message.
 */
export class TooManyRequests extends AppError {
  public retryAfterSec: number;
  constructor(message: string, retryAfterSec: number, args: Record<string, string | number> = {}) {
    super(429, message, undefined, args);
    this.retryAfterSec = Math.max(1, Math.ceil(retryAfterSec));
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new AppError(400, message, errors);
export const notFound = () => new AppError(404, M.notFound);
export const forbidden = () => new AppError(403, M.forbidden);

/** Fastify's own error for a request it cannot route (a bad URL): answered like the error handler does. */
export function frameworkErrorAnswer(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const t = (s: string) => translate(s, localeOf(req.headers['accept-language']));
  const [status, key, field] = FRAMEWORK_ERRORS[err.code] ?? [400, REQUEST_ERRORS.badRequest, 'url'];
  void reply.status(status).send({ message: t(key), statusCode: status, errors: { [field]: t(key) } });
}

/** One JSON shape for every failure: { message, statusCode, errors? }. A 5xx never carries internals. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const locale = localeOf(req.headers['accept-language']);
    const t = (s: string, args?: Record<string, string | number>) => translate(s, locale, args);
    if (err instanceof AppError) {
      const errors = err.errors && Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, t(v)]));
      if (err.statusCode >= 500) req.log.error({ err }, 'request failed');
      if (err instanceof TooManyRequests) reply.header('retry-after', String(err.retryAfterSec));
      return reply.status(err.statusCode).send({
        message: t(err.message, err.args),
        statusCode: err.statusCode,
        ...(errors ? { errors } : {}),
        ...(err.code ? { code: err.code } : {}),
      });
    }
    // A client that went away mid-request: nobody reads the answer, and it is not the server's failure.
    const socket = req.raw.socket;
    if (CLIENT_GONE_CODES.has(String(err.code)) && (!socket || socket.destroyed || req.raw.readableAborted)) {
      req.log.info({ code: err.code }, 'client closed the connection mid-request');
      return reply
        .status(400)
        .send({ message: t(M.malformedBody), statusCode: 400, errors: { body: t(M.malformedBody) } });
    }
    // The multipart parser's own errors (a body cut short, a broken part header, no or a too long boundary).
    if (err.statusCode === undefined && MULTIPART_PARSE_ERROR.test(err.message)) {
      const key = REQUEST_ERRORS.malformedMultipart;
      return reply.status(400).send({ message: t(key), statusCode: 400, errors: { body: t(key) } });
    }
    const known = FRAMEWORK_ERRORS[err.code];
    if (known) return frameworkErrorAnswer(err, req, reply);
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send({ message: t(M.server), statusCode: 500 });
    }
    // Schema validation (fastify-type-provider-zod): the fields and their messages, translated.
    if (hasZodFastifySchemaValidationErrors(err)) {
      const { message, errors } = validationFields(err.validation, err.validationContext);
      const translated = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, t(v)]));
      return reply.status(400).send({ message: t(message), statusCode: 400, errors: translated });
    }
    // Any other 4xx of Fastify or a plugin: its own text may repeat the URL, so a translated message instead.
    req.log.info({ code: err.code }, 'request refused');
    const key = REQUEST_ERRORS.badRequest;
    return reply.status(status).send({ message: t(key), statusCode: status, errors: { body: t(key) } });
  });
}

/** Messages that name the whole answer when they are the only ones (`{message: 'invalid id', errors: {id: …}}`). */
const TOP_LEVEL = new Set<string>([M.invalidId, M.invalidPage, LM.unknownSort, LM.invalidOrder]);

/**
 * The type provider's validation issues → `{message, errors: {field: key}}` (i18n keys, translated by the
 * error handler). A field is the issue's path (`files.0`), or the part itself when the path is empty.
 * Zod's own English (a wrong type, an unknown option) becomes 'invalid value'.
 */
export function validationFields(
  issues: { instancePath?: string; message?: string }[],
  context: string | undefined,
): { message: string; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || context || 'body';
    const message = issue.message?.startsWith('kadr.') ? issue.message : M.invalidValue;
    errors[field] ??= message;
  }
  const messages = new Set(Object.values(errors));
  const only = messages.size === 1 ? [...messages][0]! : undefined;
  const topLevel = only !== undefined && TOP_LEVEL.has(decodeMessage(only)?.key ?? only);
  return { message: topLevel ? only : M.validation, errors };
}
