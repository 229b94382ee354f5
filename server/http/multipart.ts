import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/** One part of a multipart upload, as @fastify/multipart yields it (only what the services read). */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; mimetype: string; file: Readable };

/**
 * The request's parts, streamed. A malformed body surfaces as the parser's error (from this iterator or
 * from a part's file stream); server/http/errors.ts answers it with a 400 naming the body.
 */
export const uploadParts = (req: FastifyRequest) => req.parts() as AsyncIterable<UploadPart>;

/** Reads a file part to its end and throws it away (a part the service does not take must still be consumed). */
export async function drain(stream: Readable): Promise<void> {
  for await (const _ of stream) { /* discard */ }
}
