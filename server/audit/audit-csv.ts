import type { AuditEntry } from '../../src/contract/audit';

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actorId',
  'actorLogin',
  'action',
  'objectType',
  'objectId',
  'ip',
  'detail',
];

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, a separator or a line break. A text a spreadsheet would
 * run as a formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe: a login or a detail is user input.
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (fields: unknown[]) => `${fields.map(csvField).join(',')}\r\n`;

/** The export: a header line, then one line per entry, as they are read. */
export async function* auditCsv(entries: AsyncIterable<AuditEntry>): AsyncGenerator<string> {
  yield csvLine(AUDIT_CSV_COLUMNS);
  for await (const e of entries) yield csvLine(AUDIT_CSV_COLUMNS.map((c) => e[c as keyof AuditEntry]));
}
