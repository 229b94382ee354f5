import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startTestApp, TEST_APP_KEY, type TestCtx } from '../helpers/app';
import { makeTestDb, postgresAvailable } from '../helpers/db';
import { seedFinishedRequest } from '../helpers/finished-request';
import { startS3Server, type S3TestServer } from '../helpers/s3-server';
import type { DbKind } from '../../server/db/index';
import { S3Storage } from '../../server/media/storage/s3.storage';
import { MediaManifest } from '../../server/maintenance/media-manifest';
import { moveMedia, type MediaMoveOptions, type ObjectOutcome } from '../../server/maintenance/media-move';

const pgOk = await postgresAvailable();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

for (const kind of ['sqlite', 'postgres'] as DbKind[]) {
  describe.skipIf(kind === 'postgres' && !pgOk)(`media move to S3 [${kind}]`, () => {
    let ctx: TestCtx;
    let s3: S3TestServer;
    /** What the installation has: every key a row names, with its bytes. */
    const files = new Map<string, Buffer>();
    let buckets = 0;

    const put = async (key: string, bytes: Buffer) => {
      await ctx.root.media.storage.put(key, Readable.from([bytes]));
      files.set(key, bytes);
    };
    /** A finished request of `userId` with `count` outputs, its clip and outputs on disk; one output of `bigBytes`. */
    const seedRequest = async (userId: number, count: number, bigBytes = 0) => {
      const r = await seedFinishedRequest(ctx.tdb.db, userId, count);
      const clip = await ctx.tdb.db
        .selectFrom('createVideoRequests')
        .select('clipKey')
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow();
      await put(clip.clipKey, randomBytes(150_000));
      for (const [i, key] of r.storageKeys.entries())
        await put(key, randomBytes(i === 0 && bigBytes ? bigBytes : 20_000 + i * 7_000));
      return r;
    };
    const newBucket = async () => {
      const bucket = `move-${kind}-${++buckets}`;
      await s3.createBucket(bucket);
      return bucket;
    };
    const target = (bucket: string) => new S3Storage(s3.settings(bucket), join(ctx.tdb.dataDir, 'work', 'storage'));
    /** One run of the move to `bucket`, with what happened to each key. */
    const run = async (bucket: string, opts: Partial<MediaMoveOptions> = {}) => {
      const manifest = await MediaManifest.open(ctx.tdb.dataDir, `test|${bucket}`);
      const outcomes = new Map<string, ObjectOutcome>();
      try {
        const report = await moveMedia({
          db: ctx.tdb.db,
          source: ctx.root.media.storage,
          target: target(bucket),
          manifest,
          ...opts,
          onObject: (key, outcome, size) => {
            outcomes.set(key, outcome);
            opts.onObject?.(key, outcome, size);
          },
        });
        return { report, outcomes };
      } finally {
        await manifest.close();
      }
    };
    const bucketObjects = async (bucket: string) => {
      const { objects, pendingUpload } = await s3.leftovers(bucket);
      return { keys: objects.sort(), pendingUpload };
    };
    const objectHash = async (bucket: string, key: string) => {
      const r = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return sha(await r.Body!.transformToByteArray());
    };

    beforeAll(async () => {
      s3 = await startS3Server();
      ctx = await startTestApp(await makeTestDb(kind, { sqliteFile: 'kadr.sqlite' }));
      const anna = await ctx.createUser('anna', 'anna-pass');
      const ivan = await ctx.createUser('ivan', 'ivan-pass');
      // One output in three 5 MiB parts (a multipart upload on the target), the rest small.
      await seedRequest(anna, 3, 11 * 1024 * 1024 + 3);
      await seedRequest(ivan, 2);
      const at = new Date().toISOString();
      const folder = await ctx.tdb.db
        .insertInto('backgroundFolders')
        .values({ userId: anna, name: 'Фони', createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const bg = {
        storageKey: `backgrounds/${anna}/${folder.id}/a.jpg`,
        previewKey: `backgrounds/${anna}/${folder.id}/a.thumb.jpg`,
      };
      await ctx.tdb.db
        .insertInto('backgroundItems')
        .values({
          folderId: folder.id,
          userId: anna,
          type: 'image',
          ...bg,
          originalName: 'a.jpg',
          mime: 'image/jpeg',
          size: 40_000,
          width: 720,
          height: 1280,
          duration: null,
          createdAt: at,
        })
        .execute();
      await put(bg.storageKey, randomBytes(40_000));
      await put(bg.previewKey, randomBytes(3_000));
      // A file no row names: not the installation's, never copied.
      await ctx.root.media.storage.put('videos/999/stray/0.mp4', Readable.from([randomBytes(1000)]));
    });
    afterAll(async () => {
      await ctx?.app.close();
      await ctx?.tdb.drop();
      await s3?.stop();
    });

    it('copies every object the database names and nothing else, each one read back with its size and hash', async () => {
      const bucket = await newBucket();
      const { report } = await run(bucket);
      expect(report).toMatchObject({
        known: files.size,
        copied: files.size,
        skipped: 0,
        missing: [],
        mismatched: [],
        failed: [],
        interrupted: false,
      });
      expect(report.bytesCopied).toBe([...files.values()].reduce((n, b) => n + b.length, 0));
      expect(await bucketObjects(bucket)).toEqual({ keys: [...files.keys()].sort(), pendingUpload: false });
      for (const [key, bytes] of files) expect(await objectHash(bucket, key), key).toBe(sha(bytes));
      // The installation still reads its own disk: nothing was switched.
      expect(ctx.root.media.storage.constructor.name).toBe('LocalStorage');

      // A second run finds everything verified and copies nothing.
      const again = await run(bucket);
      expect(again.report).toMatchObject({ known: files.size, copied: 0, skipped: files.size, failed: [] });
    });

    it('an interrupted run is resumed without copying the verified objects again; what was added meanwhile is copied', async () => {
      const bucket = await newBucket();
      const stop = new AbortController();
      let copied = 0;
      const first = await run(bucket, {
        concurrency: 1,
        signal: stop.signal,
        onObject: (_key, outcome) => {
          if (outcome === 'copied' && ++copied === 3) stop.abort();
        },
      });
      expect(first.report.interrupted).toBe(true);
      expect(first.report.copied).toBe(3);
      const verified = [...first.outcomes].filter(([, o]) => o === 'copied').map(([k]) => k);

      // The installation keeps working: a new request with its files arrives before the rerun.
      const added = await seedRequest(await ctx.createUser(`olha-${kind}`, 'olha-pass'), 1);

      const second = await run(bucket);
      expect(second.report).toMatchObject({ interrupted: false, skipped: 3, copied: files.size - 3, failed: [] });
      for (const key of verified) expect(second.outcomes.get(key), key).toBe('skipped');
      expect(second.outcomes.get(added.storageKeys[0]!)).toBe('copied');
      expect((await bucketObjects(bucket)).keys).toEqual([...files.keys()].sort());
      for (const [key, bytes] of files) expect(await objectHash(bucket, key), key).toBe(sha(bytes));
    });

    it('an object changed on the target is found (by size on every run, by hash with verifyAll) and copied again', async () => {
      const bucket = await newBucket();
      await run(bucket);
      const [cut, flipped] = [...files.keys()];
      const original = files.get(flipped!)!;
      const tampered = Buffer.from(original);
      tampered[100] = tampered[100]! ^ 0xff;
      // Changed behind the move's back (another writer, a bad disk): one shorter, one with a byte flipped.
      await target(bucket).put(cut!, Readable.from([files.get(cut!)!.subarray(1)]));
      await target(bucket).put(flipped!, Readable.from([tampered]));

      const plain = await run(bucket);
      expect(plain.report.mismatched).toEqual([cut]);
      expect(plain.outcomes.get(cut!)).toBe('copied');
      expect(plain.report.copied).toBe(1);

      const thorough = await run(bucket, { verifyAll: true });
      expect(thorough.report.mismatched).toEqual([flipped]);
      expect(thorough.report).toMatchObject({ copied: 1, skipped: files.size - 1, failed: [] });
      expect(await objectHash(bucket, flipped!)).toBe(sha(original));
      expect(await objectHash(bucket, cut!)).toBe(sha(files.get(cut!)!));
    });

    it('a file a row names but the disk lacks is reported missing, not skipped over', async () => {
      const bucket = await newBucket();
      const r = await seedFinishedRequest(ctx.tdb.db, (await ctx.login('anna', 'anna-pass')).userId, 1);
      const { report } = await run(bucket);
      expect(report.missing.sort()).toEqual([...r.storageKeys, `clips/${r.idUpload}.mp4`].sort());
      await ctx.tdb.db.deleteFrom('createVideoRequests').where('id', '=', r.id).execute();
    });

    it('npm run media:move: stopped by Ctrl-C, run again, it finishes and prints what to set', async () => {
      const bucket = await newBucket();
      const settings = s3.settings(bucket);
      const env = {
        ...process.env,
        DATA_DIR: ctx.tdb.dataDir,
        DATABASE_URL: ctx.tdb.url ?? '',
        STORAGE: 'local',
        S3_ENDPOINT: settings.endpoint,
        S3_BUCKET: bucket,
        S3_REGION: settings.region,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: settings.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: settings.credentials!.secretAccessKey,
        APP_KEY: TEST_APP_KEY,
        JWT_SECRET: 'x'.repeat(40),
      };
      const command = (interruptAtFirstCopy: boolean) =>
        new Promise<{ code: number | null; out: string }>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/media-move.ts', '--concurrency', '1'], {
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let signalled = false;
          const onData = (d: Buffer) => {
            out += d;
            if (interruptAtFirstCopy && !signalled && /^copied /m.test(out)) {
              signalled = true;
              child.kill('SIGINT');
            }
          };
          child.stdout.on('data', onData);
          child.stderr.on('data', onData);
          child.once('error', reject);
          child.once('exit', (code) => resolve({ code, out }));
        });

      const first = await command(true);
      expect(first.code, first.out).toBe(130);
      expect(first.out).toContain('Nothing was switched; run the command again to resume.');
      const copiedFirst = first.out.match(/^copied /gm)!.length;

      const second = await command(false);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toContain(`${copiedFirst} verified before`);
      expect(second.out).toMatch(/^ {2}STORAGE=s3$/m);
      expect(second.out).toContain(`  S3_BUCKET=${bucket}`);
      expect(second.out).not.toContain(settings.credentials!.secretAccessKey);
      expect((await bucketObjects(bucket)).keys).toEqual([...files.keys()].sort());
    });
  });
}
