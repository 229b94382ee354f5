// `npm run media:move [-- --verify-all] [--concurrency N]`: copies this installation's media from local disk
// (DATA_DIR/media) to the S3 bucket the S3_* variables name, verified object by object, and switches nothing
// (server/maintenance/media-move.ts; the cut-over: docs/backup.md). Ctrl-C stops it; running it again resumes.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { createDb } from '../server/db/index';
import { LocalStorage } from '../server/media/storage/index';
import { S3Storage, type S3Settings } from '../server/media/storage/s3.storage';
import { MediaManifest } from '../server/maintenance/media-manifest';
import { moveMedia } from '../server/maintenance/media-move';

const { values: args } = parseArgs({
  options: { 'verify-all': { type: 'boolean', default: false }, concurrency: { type: 'string', default: '4' } },
});
const concurrency = Number(args.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
  console.error('--concurrency: a whole number from 1 to 64');
  process.exit(2);
}

// The installation's own settings (DATA_DIR, DATABASE_URL); the S3_* variables describe the target, whatever
// STORAGE says now.
const config = loadConfig({ ...process.env, STORAGE: 's3' });
if (config.storage.kind !== 's3') throw new Error('unreachable: STORAGE=s3 was given');
const s3: S3Settings = config.storage;
const where = `s3://${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ` in ${s3.region}`}`;

const stop = new AbortController();
let signals = 0;
const onSignal = (signal: NodeJS.Signals) => {
  if (++signals > 1) process.exit(130);
  process.stdout.write(`\n${signal}: stopping (copies under way are cut; run again to resume)\n`);
  stop.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const { db } = createDb(config);
const manifest = await MediaManifest.open(config.dataDir, `${s3.endpoint ?? `aws:${s3.region}`}|${s3.bucket}`);
const target = new S3Storage(s3, join(config.dataDir, 'work', 'storage'));
process.stdout.write(`Copying the media of ${config.dataDir} to ${where} (progress: ${manifest.path})\n`);
let report;
try {
  report = await moveMedia({
    db,
    source: new LocalStorage(config.mediaDir),
    target,
    manifest,
    concurrency,
    verifyAll: args['verify-all'],
    signal: stop.signal,
    onObject: (key, outcome, size) => {
      if (outcome !== 'skipped') process.stdout.write(`${outcome.padEnd(8)} ${key} (${size} bytes)\n`);
    },
  });
} finally {
  await manifest.close();
  await db.destroy();
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
process.stdout.write(
  `\n${report.known} objects named by the database: ${report.copied} copied and verified (${mb(report.bytesCopied)}), ` +
    `${report.skipped} verified before, ${report.missing.length} missing on disk, ${report.mismatched.length} ` +
    `different on the target, ${report.failed.length} failed.\n`,
);
for (const key of report.missing) process.stdout.write(`  missing: ${key}\n`);
for (const f of report.failed) process.stdout.write(`  failed: ${f.key}: ${f.error}\n`);

if (report.interrupted) {
  process.stdout.write('Stopped before the end. Nothing was switched; run the command again to resume.\n');
  process.exit(130);
}
if (report.failed.length || report.missing.length) {
  process.stdout.write('Not every object is in the bucket yet. Nothing was switched; fix the above and run again.\n');
  process.exit(1);
}
const env = [
  'STORAGE=s3',
  ...(s3.endpoint ? [`S3_ENDPOINT=${s3.endpoint}`] : []),
  `S3_REGION=${s3.region}`,
  `S3_BUCKET=${s3.bucket}`,
  ...(s3.forcePathStyle ? ['S3_FORCE_PATH_STYLE=true'] : []),
  ...(s3.credentials ? ['S3_ACCESS_KEY_ID=… and S3_SECRET_ACCESS_KEY=… (the ones this run used)'] : []),
];
process.stdout.write(
  `Every object is in ${where}, verified. Nothing was switched: Kadr still uses ${config.mediaDir}.\n` +
    'To switch: stop Kadr, run this command once more (it copies what was added meanwhile), then start Kadr with\n' +
    env.map((l) => `  ${l}\n`).join('') +
    'Keep the local folder until the installation has run on S3 for a while (docs/backup.md, "Cut-over").\n',
);
process.exit(0);
