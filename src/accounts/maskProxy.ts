/** A proxy address with its password hidden ('http://user:••••••@203.0.113.1:8080'); one without, unchanged. */
export function maskProxy(url: string): string {
  return url.replace(/^((?:[a-z][\w+.-]*:\/\/)?[^:@/\s]*:)([^@/\s]+)@/i, '$1••••••@');
}

/** Whether a proxy address carries a password. */
export const hasProxyPassword = (url: unknown): boolean => typeof url === 'string' && maskProxy(url) !== url;
