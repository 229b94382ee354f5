import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { REQUEST_ERRORS } from './request-errors';

/** One part of a multipart upload, as @fastify/multipart yields it (only what the services read). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable };

/**
 * The request's parts, streamed. A malformed body surfaces as the parser's error (from this iterator or
 * from a part's file stream); server/http/errors.ts answers it with a 400 naming the body.
 */
export async function* uploadParts(req: FastifyRequest): AsyncIterable<UploadPart> {
  for await (const part of req.parts() as AsyncIterable<UploadPart>) {
    // A file name is stored as the item's name: no control characters (PostgreSQL cannot store a NUL).
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (part.type === 'file' && /[\u0000-\u001f\u007f]/.test(part.filename ?? '')) {
      part.file.resume();
      throw new AppError(400, REQUEST_ERRORS.invalidFileName, { [part.fieldname]: REQUEST_ERRORS.invalidFileName });
    }
    yield part;
  }
}

/** Reads a file part to its end and throws it away (a part the service does not take must still be consumed). */
export async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) {
    /* discard */
  }
}
