import type { CsvRead } from './csv.worker';

/** A file read and parsed in a web worker (src/imports/csv.worker.ts); the worker ends with the answer. */
export function readCsv(file: File): Promise<CsvRead> {
  return file.arrayBuffer().then(
    (bytes) =>
      new Promise<CsvRead>((resolve, reject) => {
        const worker = new Worker(new URL('./csv.worker.ts', import.meta.url), { type: 'module' });
        worker.onmessage = (e: MessageEvent<CsvRead>) => {
          worker.terminate();
          resolve(e.data);
        };
        worker.onerror = (e) => {
          worker.terminate();
          reject(new Error(e.message));
        };
        worker.postMessage(bytes, [bytes]);
      }),
  );
}
