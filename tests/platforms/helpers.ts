/** Shared bits for the platform driver tests. */
import { PlatformError, type PlatformErrorKind } from '../../server/platforms/types';

/** Opens an authorization URL like a browser would, without following the redirect back to us. */
export async function openConsent(authorizationUrl: string): Promise<{ location: URL; query: URLSearchParams; raw: string }> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  const raw = res.headers.get('location');
  if (res.status !== 302 || !raw) throw new Error(`expected a redirect, got ${res.status}: ${await res.text()}`);
  const location = new URL(raw);
  return { location, query: location.searchParams, raw };
}

export async function expectPlatformError(p: Promise<unknown> | (() => unknown), kind: PlatformErrorKind): Promise<PlatformError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    const err = e as PlatformError;
    if (err.kind !== kind) throw new Error(`expected kind ${kind}, got ${err.kind}: ${err.message}`);
    return err;
  }
  throw new Error(`expected PlatformError ${kind}, but it resolved`);
}

export const REDIRECT_URI = 'https://kadr.example/api/oauth/callback';
