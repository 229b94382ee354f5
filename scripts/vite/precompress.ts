import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** What is worth compressing: text files of at least 1 KB (smaller ones gain less than the headers weigh). */
const TEXT = /\.(js|css|html|svg|json|txt)$/;
const MIN_BYTES = 1024;

/**
 * Writes `file.br` and `file.gz` next to each text file of the build, at the highest levels (once, at build
 * time); the server sends them to browsers that accept them (server/app.ts, @fastify/static `preCompressed`).
 */
export const precompress = (): Plugin => ({
  name: 'kadr-precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    const dir = options.dir!;
    await Promise.all(
      Object.keys(bundle)
        .filter((file) => TEXT.test(file))
        .map(async (file) => {
          const path = join(dir, file);
          const data = await readFile(path);
          if (data.length < MIN_BYTES) return;
          await Promise.all([
            gz(data, { level: 9 }).then((out) => writeFile(`${path}.gz`, out)),
            brotli(data, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
            }).then((out) => writeFile(`${path}.br`, out)),
          ]);
        }),
    );
  },
});
