import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../src/contract/http';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import { API_TAGS } from '../http/openapi';
import { contentTypeOf, isValidKey, type Media } from './storage/index';

const MediaParams = z.object({ '*': z.string().meta({ description: 'The storage key', example: 'bg/2/7/5.jpg' }) });
const MediaQuery = z.object({
  exp: z.string().optional().meta({ description: 'Expiry, Unix seconds' }),
  sig: z.string().optional().meta({ description: 'HMAC-SHA256 of key and expiry' }),
});
type Q = { Params: z.infer<typeof MediaParams>; Querystring: z.infer<typeof MediaQuery> };
const binary = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
});

/** `Range: bytes=a-b | a- | -n` → inclusive bounds; null = serve whole; 'unsatisfiable' → 416. One range only. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // malformed or multi-range: the whole file (RFC 9110 allows it)
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/**
 * GET/HEAD /api/media/<key>?exp&sig: stored media through signed, expiring links (no bearer header, since
 * <img>/<video> cannot send one). HTTP range requests are answered with 206 so a <video> can seek.
 * A tampered or expired link is a 403; a valid link to a deleted object is a 404.
 */
export async function mediaRoutes(app: FastifyInstance, { media }: { media: Media }) {
  const handler = async (req: FastifyRequest<Q>, reply: FastifyReply) => {
    const key = req.params['*'];
    if (!isValidKey(key) || media.signer.verify(key, req.query.exp, req.query.sig) !== 'ok')
      throw new AppError(403, M.forbidden);
    const st = await media.storage.stat(key);
    if (!st) throw new AppError(404, M.notFound);
    const maxAge = Math.max(0, Number(req.query.exp) - Math.floor(Date.now() / 1000));
    reply
      .header('Accept-Ranges', 'bytes')
      .header('Content-Type', contentTypeOf(key))
      .header('Cache-Control', `private, max-age=${maxAge}`)
      .header('Last-Modified', st.mtime.toUTCString())
      .header('X-Content-Type-Options', 'nosniff');
    const range = parseRange(req.headers.range, st.size);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('Content-Range', `bytes */${st.size}`).send();
    }
    if (range) {
      reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${st.size}`)
        .header('Content-Length', range.end - range.start + 1);
    } else {
      reply.status(200).header('Content-Length', st.size);
    }
    if (st.size === 0) return reply.send();
    return reply.send(await media.storage.createReadStream(key, range ?? undefined));
  };
  // Fastify adds HEAD for GET routes.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/media/*',
    {
      schema: {
        tags: [API_TAGS.media],
        summary: 'A stored file through a signed link',
        description:
          'Pictures, previews and videos; `Range` requests are answered with 206. Links are minted inside answers.',
        params: MediaParams,
        querystring: MediaQuery,
        response: {
          200: binary('The whole file'),
          206: binary('The requested range'),
          416: noContent('Range not satisfiable'),
          ...errorResponses(403, 404, 500),
        },
      },
    },
    handler,
  );
}
