import type { FastifyError, FastifyInstance } from 'fastify';
import { M } from '../../src/contract/messages';
import { localeOf, translate } from './i18n';

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
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new AppError(400, message, errors);
export const notFound = () => new AppError(404, M.notFound);
export const forbidden = () => new AppError(403, M.forbidden);

/** One JSON shape for every failure: { message, statusCode, errors? }. A 5xx never carries internals. */
const MULTIPART_PARSE_ERROR = /^(Unexpected end of (multipart data|form)|Malformed part header|Part terminated early)/;

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const locale = localeOf(req.headers['accept-language']);
    const t = (s: string, args?: Record<string, string | number>) => translate(s, locale, args);
    if (err instanceof AppError) {
      const errors = err.errors && Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, t(v)]));
      if (err.statusCode >= 500) req.log.error({ err }, 'request failed');
      return reply.status(err.statusCode).send({ message: t(err.message, err.args), statusCode: err.statusCode, ...(errors ? { errors } : {}) });
    }
    // The multipart parser's own errors (a body cut short, a broken part header) carry no status: bad input.
    if (err.statusCode === undefined && MULTIPART_PARSE_ERROR.test(err.message)) {
      return reply.status(400).send({ message: t(M.malformedBody), statusCode: 400, errors: { body: t(M.malformedBody) } });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send({ message: t(M.server), statusCode: 500 });
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type, schema validation).
    if (err.validation) {
      const errors: Record<string, string> = {};
      for (const v of err.validation) {
        const field = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String((v.params as any)?.missingProperty ?? err.validationContext ?? 'body');
        errors[field] ??= v.message ?? t(M.validation);
      }
      return reply.status(400).send({ message: t(M.validation), statusCode: 400, errors });
    }
    return reply.status(status).send({ message: err.message, statusCode: status });
  });
}
