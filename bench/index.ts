import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * `npm run bench`: every benchmark module that exists, in order; each prints its own figures. A missing
 * module is skipped with a note; a failing one is reported and the rest still run (exit code 1 at the end).
 */
const BENCHES: Array<[file: string, fn: string]> = [
  ['bench/api.bench.ts', 'apiBench'],
  ['bench/bundle.bench.ts', 'bundleBench'],
  ['bench/accounts.bench.ts', 'accountsBench'],
  ['bench/search.bench.ts', 'searchBench'],
  ['bench/calendar.bench.ts', 'calendarBench'],
  ['bench/calendar-draw.bench.ts', 'calendarDrawBench'],
  ['bench/imports.bench.ts', 'importsBench'],
  ['bench/analytics.bench.ts', 'analyticsBench'],
  ['bench/render.bench.ts', 'renderBench'],
  ['bench/upload.bench.ts', 'uploadBench'],
  ['bench/storage.bench.ts', 'storageBench'],
  ['bench/publish.bench.ts', 'publishBench'],
  ['bench/publish-pipeline.bench.ts', 'publishPipelineBench'],
  ['bench/ai-browser.bench.ts', 'aiBrowserBench'],
  ['bench/live.bench.ts', 'liveBench'],
  ['bench/queue.bench.ts', 'queueBench'],
  ['bench/next-step.bench.ts', 'nextStepBench'],
  ['bench/ai.bench.ts', 'aiBench'],
];

const only = process.argv.slice(2); // `npm run bench -- render` runs the matching modules only
let failed = 0;
for (const [file, fn] of BENCHES) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  if (!existsSync(resolve(file))) {
    console.log(`-- ${file}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${file}`);
  try {
    const mod = await import(resolve(file));
    if (typeof mod[fn] !== 'function') throw new Error(`${file} does not export ${fn}()`);
    await mod[fn]();
  } catch (err) {
    failed++;
    console.log(`!! ${file} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}
process.exit(failed ? 1 : 0);
