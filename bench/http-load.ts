import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The load generator, run in a worker thread so that its own work does not share the event loop of the
 * server under test: `concurrency` keep-alive connections (undici Pool), each sending the next request as
 * soon as the last one is answered (closed loop), for `durationMs`. Pages are random in 1..pages.
 */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require(workerData.undici);
(async () => {
  const { origin, path, pages, headers, concurrency, durationMs } = workerData;
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const times = [];
  let errors = 0;
  let first = '';
  const end = performance.now() + durationMs;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const r = await pool.request({ method: 'GET', path: path + (1 + Math.floor(Math.random() * pages)), headers });
      const body = await r.body.text();
      if (r.statusCode !== 200 || !body.startsWith('{"data":[{')) {
        errors++;
        first ||= r.statusCode + ' ' + body.slice(0, 200);
      }
      times.push(performance.now() - t);
    }
  }));
  await pool.close();
  parentPort.postMessage({ times, errors, first });
})();
`;

/** Closed-loop HTTP load on `origin + path + page`; answers every request's latency in ms. */
export async function load(
  origin: string,
  path: string,
  pages: number,
  headers: Record<string, string>,
  opts: { concurrency: number; durationMs: number },
): Promise<number[]> {
  const worker = new Worker(LOADER, {
    eval: true,
    workerData: {
      origin,
      path,
      pages,
      headers,
      concurrency: opts.concurrency,
      durationMs: opts.durationMs,
      undici: createRequire(import.meta.url).resolve('undici'),
    },
  });
  const { times, errors, first } = await new Promise<{ times: number[]; errors: number; first: string }>((ok, fail) => {
    worker.once('message', ok);
    worker.once('error', fail);
  });
  await worker.terminate();
  if (errors) throw new Error(`${errors} failed requests to ${origin}${path}, the first: ${first}`);
  return times;
}

/** Throughput and latency percentiles of one run's latencies (sorts `times`). */
export function summary(times: number[], durationMs: number) {
  times.sort((a, b) => a - b);
  return {
    rps: times.length / (durationMs / 1000),
    p50: times[Math.floor(times.length * 0.5)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
  };
}
