import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from './errors';
import { REQUEST_ERRORS } from './request-errors';

/** Deeper JSON than any request of the API needs; far below what overflows the stack in parsing or validation. */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` nests arrays/objects deeper than `max` (strings skipped), checked before anything parses it. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

const bodyError = (key: string) => new AppError(400, key, { body: key });

/**
 * The JSON body parser: an empty body is no body (a DELETE with a JSON content type), nesting is capped before
 * parsing, prototype poisoning refused (as Fastify's own parser does), and every failure is a translated 400
 * naming `body`.
 */
export function installJsonParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const body = String(text);
    if (!body.trim()) return done(null, undefined);
    if (jsonTooDeep(body)) return done(bodyError(REQUEST_ERRORS.tooDeep), undefined);
    try {
      done(null, secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(bodyError(REQUEST_ERRORS.invalidJson), undefined);
    }
  });
}
