/**
 * Messages of requests the server cannot read (malformed JSON or multipart, a bad URL, limits): i18n keys of the
 * kadr.request_errors block (i18n/uk.ts, i18n/en.ts). Fastify's and the multipart parser's own texts never reach
 * a client (they may repeat the URL, and with it a signed link's signature).
 */
export const REQUEST_ERRORS = {
  invalidJson: 'kadr.request_errors.invalid_json',
  tooDeep: 'kadr.request_errors.too_deep',
  badRequest: 'kadr.request_errors.bad_request',
  badUrl: 'kadr.request_errors.bad_url',
  tooLarge: 'kadr.request_errors.too_large',
  unsupportedType: 'kadr.request_errors.unsupported_type',
  notMultipart: 'kadr.request_errors.not_multipart',
  malformedMultipart: 'kadr.request_errors.malformed_multipart',
  tooManyParts: 'kadr.request_errors.too_many_parts',
  invalidFileName: 'kadr.request_errors.invalid_file_name',
} as const;

/** Fastify's and @fastify/multipart's error codes → [status, message key, the field it names]. */
export const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, REQUEST_ERRORS.invalidJson, 'body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, REQUEST_ERRORS.invalidJson, 'body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, REQUEST_ERRORS.tooLarge, 'body'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, REQUEST_ERRORS.unsupportedType, 'content-type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, REQUEST_ERRORS.badRequest, 'content-length'],
  FST_ERR_CTP_INVALID_TYPE: [400, REQUEST_ERRORS.unsupportedType, 'content-type'],
  FST_ERR_CTP_EMPTY_TYPE: [400, REQUEST_ERRORS.unsupportedType, 'content-type'],
  FST_ERR_BAD_URL: [400, REQUEST_ERRORS.badUrl, 'url'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [406, REQUEST_ERRORS.notMultipart, 'content-type'],
  FST_PARTS_LIMIT: [413, REQUEST_ERRORS.tooManyParts, 'body'],
  FST_FILES_LIMIT: [413, REQUEST_ERRORS.tooManyParts, 'body'],
  FST_FIELDS_LIMIT: [413, REQUEST_ERRORS.tooManyParts, 'body'],
  FST_REQ_FILE_TOO_LARGE: [413, REQUEST_ERRORS.tooLarge, 'body'],
  FST_PROTO_VIOLATION: [400, REQUEST_ERRORS.invalidJson, 'body'],
};

/** The multipart parser's (busboy's) own errors, which carry no code: a broken body, a missing or long boundary. */
export const MULTIPART_PARSE_ERROR =
  /^(Unexpected end of (multipart data|form)|Malformed (part header|content type)|Part terminated early|Multipart: |Unsupported content type|Boundary|The needle cannot have a length)/i;

/** Errors that mean the client went away mid-request (nobody reads the answer). */
export const CLIENT_GONE_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'FST_ERR_CTP_ABORTED',
]);
