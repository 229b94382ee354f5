/** Shared bits for the platform driver tests. */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformError, type PlatformErrorKind } from '../../server/platforms/types';

/** Opens an authorization URL like a browser would, without following the redirect back to us. */
export async function openConsent(
  authorizationUrl: string,
): Promise<{ location: URL; query: URLSearchParams; raw: string }> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const raw = res.headers.get('location');
  if (res.status !== 302 || !raw) throw new Error(`expected a redirect, got ${res.status}: ${await res.text()}`);
  const location = new URL(raw);
  return { location, query: location.searchParams, raw };
}

export async function expectPlatformError(
  p: Promise<unknown> | (() => unknown),
  kind: PlatformErrorKind,
): Promise<PlatformError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    const err = e as PlatformError;
    if (err.kind !== kind) throw new Error(`expected kind ${kind}, got ${err.kind}: ${err.message}`, { cause: e });
    return err;
  }
  throw new Error(`expected PlatformError ${kind}, but it resolved`);
}

export const REDIRECT_URI = 'https://kadr.example/api/oauth/callback';

/**
 * The scopes each platform documents for what Kadr does (/work/shared/notes/platforms.md), written out here so a
 * driver constant that drifts from them fails the tests.
 */
export const DOCUMENTED_SCOPES = {
  // youtube.upload: videos.insert and thumbnails.set; youtube.force-ssl: channels.list and channels.update.
  youtube: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'],
  // Login Kit v2: profile fields, statistics, the video list, direct post and inbox upload.
  tiktok: ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list', 'video.publish', 'video.upload'],
  // Instagram API with Instagram Login (the scope names in use since 2025-01-27): profile, publishing, insights.
  instagram: ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_insights'],
};

/** The stored message of a PlatformError key (what the profile keeps and the panel translates). */
export const storedKey = (key: string) => `kadr.platform_errors.${key}`;

/**
 * A PUT of `body` that sends its first half and holds the rest (a worker that lost its lease, still sending while
 * the next one resumes): `finish` sends the rest and resolves with the answer's status. It resolves once the
 * simulator has had time to take the request in, so what the test sends next arrives while this one streams.
 */
export async function heldPut(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ finish: () => Promise<number> }> {
  const req = request(url, { method: 'PUT', headers: { ...headers, 'content-length': String(body.length) } });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
  });
  await new Promise<void>((resolve) => req.write(body.subarray(0, body.length >> 1), () => resolve()));
  await sleep(100);
  return { finish: () => (req.end(body.subarray(body.length >> 1)), answer) };
}
