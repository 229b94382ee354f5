import { KM, type ApiKeyAccess } from '../../src/contract/personal-keys';

/**
 * Where an API key never reaches, whatever its owner's role: the keys themselves, webhooks, the sign-in and
 * password routes (and two-factor, wherever its routes are mounted), and changes to users (their passwords and
 * roles). A stolen key then cannot make more keys, point events elsewhere, or take the account over.
 * Matched on the route's pattern as registered (`req.routeOptions.url`).
 */
const NEVER_PREFIXES = ['/api/api-keys', '/api/webhooks', '/api/auth/', '/api/two-factor', '/api/2fa'];
const NEVER_WORDS = ['two-factor', 'totp', 'recovery-codes', '/password'];
/** Reads a key may still make under a never-prefix: who the key acts as. */
const READS_ALLOWED = new Set(['/api/auth/me']);

const reading = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Whether a key of `access` may make this request: undefined when it may, else the message of the 403. A
 * read-only key makes reads only.
 */
export function keyRefusal(access: ApiKeyAccess, method: string, route: string): string | undefined {
  const path = route.toLowerCase();
  const allowedRead = reading(method) && READS_ALLOWED.has(path);
  if (!allowedRead) {
    if (NEVER_PREFIXES.some((p) => path.startsWith(p))) return KM.notForKeys;
    if (NEVER_WORDS.some((w) => path.includes(w))) return KM.notForKeys;
    if (path.startsWith('/api/users') && !reading(method)) return KM.notForKeys;
  }
  if (access === 'read' && !reading(method)) return KM.readOnly;
  return undefined;
}
