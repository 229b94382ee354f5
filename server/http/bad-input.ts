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

/** A `\uD800`–`\uDFFF` escape: the only way a JSON text decoded from UTF-8 can carry a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The parsed body with every string (keys too) well-formed Unicode: a lone UTF-16 surrogate becomes U+FFFD.
 * PostgreSQL kept such a string as it came while SQLite stored U+FFFD; this is the one rule for both, and for
 * every field, before anything validates or stores it. Arrays and objects are fixed in place (fresh from the
 * parser, nobody else holds them).
 */
export function wellFormed(v: unknown): unknown {
  if (typeof v === 'string') return v.isWellFormed() ? v : v.toWellFormed();
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = wellFormed(v[i]);
    return v;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const value = wellFormed(o[k]);
      if (k.isWellFormed()) o[k] = value;
      else {
        delete o[k];
        o[k.toWellFormed()] = value;
      }
    }
  }
  return v;
}

/**
 * The JSON body parser: an empty body is no body (a DELETE with a JSON content type), nesting is capped before
 * parsing, prototype poisoning refused (as Fastify's own parser does), lone surrogates replaced (wellFormed;
 * only bodies that escape one are walked), and every failure is a translated 400 naming `body`.
 */
export function installJsonParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    const body = String(text);
    if (!body.trim()) return done(null, undefined);
    if (jsonTooDeep(body)) return done(bodyError(REQUEST_ERRORS.tooDeep), undefined);
    try {
      const parsed: unknown = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
      done(null, SURROGATE_ESCAPE.test(body) ? wellFormed(parsed) : parsed);
    } catch {
      done(bodyError(REQUEST_ERRORS.invalidJson), undefined);
    }
  });
}
