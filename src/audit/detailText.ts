import { PLATFORM_TITLES, isPlatformKey } from '../contract/platforms';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** An instant as the server writes one (ISO 8601, UTC or with an offset). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Codes the server writes in a detail, said in the reader's words by the field they stand in. */
const CODES: Record<string, (code: string, t: Translate) => string> = {
  platform: (v) => (isPlatformKey(v) ? PLATFORM_TITLES[v] : v),
  platforms: (v) => (isPlatformKey(v) ? PLATFORM_TITLES[v] : v),
  role: (v, t) => t(`kadr.users.roles.${v}`, { _: v }),
  access: (v, t) => t(`kadr.api_keys.access_${v}`, { _: v }),
  with: (v, t) => t(`kadr.audit.detail_values.${v}`, { _: v }),
  step: (v, t) => t(`kadr.audit.detail_values.${v}`, { _: v }),
  events: (v, t) => t(`kadr.webhooks.event.${v}`, { _: v }),
  fields: (v, t) => t(`kadr.accounts.fields.${v}`, { _: v }),
};

/** A detail field's name in the reader's language (the field itself when it has none). */
export const detailLabel = (field: string, t: Translate) => t(`kadr.audit.detail.${field}`, { _: field });

/**
 * An audit entry's detail value as a reader reads it: instants in the panel's UTC format, yes/no, platform names,
 * codes in words (how one signed in, a role, a key's access, webhook events, a profile's fields), lists joined, a
 * change as `from → to`, and an object (a publication's video) as its named fields. What it does not know is shown
 * as written.
 */
export function detailText(field: string, value: unknown, t: Translate, formatDate: (iso: string) => string): string {
  const text = (f: string, v: unknown) => detailText(f, v, t, formatDate);
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'ra.boolean.true' : 'ra.boolean.false');
  if (typeof value === 'string') return INSTANT.test(value) ? formatDate(value) : (CODES[field]?.(value, t) ?? value);
  if (Array.isArray(value))
    return value.map((v) => text(field, v)).join(value.some((v) => typeof v === 'object' && v) ? '; ' : ', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 2 && 'from' in o && 'to' in o) return `${text(field, o.from)} → ${text(field, o.to)}`;
    return keys.map((k) => `${detailLabel(k, t)}: ${text(k, o[k])}`).join(', ');
  }
  return String(value);
}
