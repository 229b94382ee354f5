import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connectPlatform } from '../helpers/connected-tokens';
import { seedFinishedRequest } from '../helpers/finished-request';
import type { TestServer } from '../helpers/server';
import type { SignedInApi } from '../helpers/server-api';

/**
 * What the publishing browser tests seed straight in the database (workers are off): finished requests whose
 * rendered files really play, and profiles with YouTube connected the way the OAuth callback leaves them.
 */

let clip: Buffer | undefined;
/** A one-second 180x320 H.264 MP4 the browser plays, made once by ffmpeg. */
function playableMp4(): Buffer {
  if (clip) return clip;
  const dir = mkdtempSync(join(tmpdir(), 'kadr-e2e-clip-'));
  const file = join(dir, 'v.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=180x320:r=25:d=1',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-movflags',
    '+faststart',
    file,
  ]);
  clip = readFileSync(file);
  return clip;
}

/** The first admin's user id (the browser tests act as them). */
export const adminId = async (srv: TestServer) =>
  (await srv.tdb.db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;

/** A finished request of the admin with `count` rendered videos, their playable files in media storage. */
export async function renderedRequest(srv: TestServer, count: number) {
  const req = await seedFinishedRequest(srv.tdb.db, await adminId(srv), count);
  for (const key of req.storageKeys) {
    const path = join(srv.config.mediaDir, ...key.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, playableMp4());
  }
  return req;
}

/** A profile of the signed-in user with YouTube connected; returns its id. */
export async function youtubeProfile(
  srv: TestServer,
  api: SignedInApi,
  comments: string,
  proxy = 'http://127.0.0.1:3128',
): Promise<number> {
  const { id } = await api('POST', '/api/accounts', { proxy, comments });
  await connectPlatform(srv.tdb.db, srv.app.root.sealer, id, 'youtube');
  return id as number;
}
