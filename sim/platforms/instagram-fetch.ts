/**
 * How the Instagram simulator fetches a container's `video_url`, as Meta's cURL does: GETs with `Range`, each
 * body streamed (never held whole), bytes counted and hashed. A response cut short is asked again from the
 * first byte not yet received (`Range: bytes=N-…`), a few times; then the fetch fails (the container's ERROR
 * 2207052). Every range received is recorded so tests can prove no byte was fetched twice.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';

export interface SimFetchRecord {
  url: string;
  /** Byte ranges received, [start, endExclusive), in order. */
  ranges: Array<[number, number]>;
  /** Range headers the simulator sent. */
  requested: string[];
  bytes: number;
  /** sha256 hex of the bytes received, in order. */
  sha256: string;
  /** The first bytes of the file (format detection). */
  head: Buffer;
  total: number | null;
}

export type SimFetchResult =
  { ok: true; record: SimFetchRecord } | { ok: false; subcode: 2207052 | 2207003; record: SimFetchRecord };

export interface SimFetchOptions {
  /** Bytes asked for per Range request (default 8 MiB). */
  chunkBytes: number;
  /** How many times a cut response is resumed before the fetch fails (default 2). */
  retries: number;
  /** The whole fetch fails with 2207003 (download timeout) after this long. */
  timeoutMs: number;
}

interface Part {
  status: number;
  total: number | null;
  start: number;
  received: number;
  complete: boolean;
}

function getRange(url: URL, range: string, onData: (c: Buffer) => void, signal: AbortSignal): Promise<Part> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      { headers: { range, 'user-agent': 'facebookexternalhit/1.1 (kadr-simulator)' }, signal },
      (res) => {
        const status = res.statusCode ?? 0;
        const cr = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(String(res.headers['content-range'] ?? ''));
        const length = Number(res.headers['content-length'] ?? NaN);
        const start = status === 206 && cr ? Number(cr[1]) : 0;
        const expected =
          status === 206 && cr ? Number(cr[2]) - Number(cr[1]) + 1 : Number.isFinite(length) ? length : null;
        const total = cr && cr[3] !== '*' ? Number(cr[3]) : status === 200 && Number.isFinite(length) ? length : null;
        if (status !== 200 && status !== 206) {
          res.resume();
          resolve({ status, total, start, received: 0, complete: false });
          return;
        }
        let received = 0;
        res.on('data', (c: Buffer) => {
          received += c.length;
          onData(c);
        });
        const done = () =>
          resolve({ status, total, start, received, complete: expected === null || received === expected });
        res.on('end', done);
        res.on('aborted', done);
        res.on('error', done);
      },
    );
    req.on('error', (e) =>
      signal.aborted ? reject(e) : resolve({ status: 0, total: null, start: 0, received: 0, complete: false }),
    );
  });
}

/** Fetches `videoUrl` whole, in ranges, resuming cut responses; never throws. */
export async function simFetchVideo(videoUrl: string, opts: SimFetchOptions): Promise<SimFetchResult> {
  const record: SimFetchRecord = {
    url: videoUrl,
    ranges: [],
    requested: [],
    bytes: 0,
    sha256: '',
    head: Buffer.alloc(0),
    total: null,
  };
  const hash = createHash('sha256');
  const fail = (subcode: 2207052 | 2207003): SimFetchResult => ({ ok: false, subcode, record });
  let url: URL;
  try {
    url = new URL(videoUrl);
  } catch {
    return fail(2207052);
  }
  if (url.protocol !== 'http:') return fail(2207052); // the simulator only reaches local test servers
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let offset = 0;
  let retries = opts.retries;
  try {
    for (;;) {
      const end =
        record.total === null ? offset + opts.chunkBytes - 1 : Math.min(record.total, offset + opts.chunkBytes) - 1;
      const range = `bytes=${offset}-${end}`;
      record.requested.push(range);
      const part = await getRange(
        url,
        range,
        (c) => {
          hash.update(c);
          if (record.head.length < 64) record.head = Buffer.concat([record.head, c]).subarray(0, 64);
        },
        signal,
      );
      if (part.status !== 200 && part.status !== 206) return fail(2207052);
      if (part.status === 206 && part.start !== offset) return fail(2207052);
      if (part.received) record.ranges.push([offset, offset + part.received]);
      offset += part.received;
      record.bytes = offset;
      record.total ??= part.total;
      if (part.status === 200 && part.complete) break; // a server that ignores Range sent everything
      if (record.total !== null && offset >= record.total) break;
      if (!part.complete) {
        if (retries-- <= 0) return fail(2207052);
        continue;
      }
      if (record.total === null) return fail(2207052); // 206 without a total: cannot know where the file ends
    }
  } catch {
    return fail(signal.aborted ? 2207003 : 2207052);
  }
  record.sha256 = hash.digest('hex');
  return { ok: true, record };
}

/** An ISO BMFF file (MP4/MOV) has an `ftyp` box first. */
export function looksLikeMp4(head: Buffer): boolean {
  return head.length >= 8 && head.subarray(4, 8).toString('latin1') === 'ftyp';
}
