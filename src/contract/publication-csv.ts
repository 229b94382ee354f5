import Papa from 'papaparse';
import { PLATFORMS, type PlatformKey } from './platforms';

/**
 * Publications as CSV (issue 21 item 4), one shape for the import and the export so a file goes round-trip: one
 * row per rendered video × profile (or group) with its platforms, title, description, tags, date (or "next slot")
 * and whether a repeat is allowed. Pure (papaparse only): the panel parses in a web worker, the server again.
 * A spreadsheet's CSV is taken as it comes: UTF-8 with or without a BOM (Windows-1251 when it is not UTF-8),
 * `;` or `,` between fields (guessed from the file), quoted fields, Cyrillic headers.
 */

export const CSV_COLUMNS = [
  'video',
  'profile',
  'group',
  'platforms',
  'title',
  'description',
  'tags',
  'date',
  'repeat',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Other spellings of each column's header (a Ukrainian spreadsheet's). */
const HEADER_ALIASES: Record<string, CsvColumn> = {
  відео: 'video',
  профіль: 'profile',
  група: 'group',
  платформи: 'platforms',
  платформа: 'platforms',
  platform: 'platforms',
  назва: 'title',
  опис: 'description',
  теги: 'tags',
  дата: 'date',
  повтор: 'repeat',
};

/** Messages (i18n keys) of a row's problems. */
export const CSV_MESSAGES = {
  required: 'kadr.imports.errors.required',
  profileOrGroup: 'kadr.imports.errors.profile_or_group',
  unknownPlatform: 'kadr.imports.errors.unknown_platform',
  badDate: 'kadr.imports.errors.bad_date',
  noHeader: 'kadr.imports.errors.no_header',
  unknownColumn: 'kadr.imports.warnings.unknown_column',
  parse: 'kadr.imports.errors.parse',
  badFlag: 'kadr.imports.errors.bad_flag',
} as const;

/** A row's date: an instant, or "next slot" (the profile's next free posting slot). */
export type CsvDate = { at: string } | { nextSlot: true };

/** One data row as read (row numbers as a spreadsheet shows them: the header is row 1). */
export type CsvRow = {
  row: number;
  video: string;
  profile: string;
  group: string;
  platforms: PlatformKey[];
  title: string;
  description: string;
  tags: string[];
  date: CsvDate | null;
  repeat: boolean;
};

/** A problem with a row's field (row 1 for the header): an error keeps the file from being written, a warning not. */
export type CsvIssue = {
  row: number;
  field: string;
  level: 'error' | 'warning';
  message: string;
  args?: Record<string, string | number>;
};

export type CsvParse = { rows: CsvRow[]; issues: CsvIssue[] };

/** The words of "next slot" (any case). */
const NEXT_SLOT = new Set(['next slot', 'next', 'наступний слот', 'наступний']);
const YES = new Set(['1', 'yes', 'y', 'true', 'так', '+']);
const NO = new Set(['', '0', 'no', 'n', 'false', 'ні', '-']);

/** The text of a file's bytes: UTF-8 (a BOM dropped), else Windows-1251 (Excel's "CSV" in a Cyrillic locale). */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1251').decode(bytes);
  }
}

/** A list cell: items split by commas, semicolons, `|` or new lines, trimmed, empties dropped. */
const listOf = (cell: string) =>
  cell
    .split(/[,;|\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

const pad = (n: string) => n.padStart(2, '0');

/**
 * A date cell: ISO 8601 (with a zone: as it says; without: UTC), "YYYY-MM-DD HH:mm" or the Ukrainian locale's
 * "DD.MM.YYYY HH:mm" (both UTC for now: a profile's own time zone comes with issue 21 item 2), or "next slot".
 * Undefined when unreadable.
 */
export function parseCsvDate(cell: string): CsvDate | undefined {
  const s = cell.trim();
  if (NEXT_SLOT.has(s.toLowerCase())) return { nextSlot: true };
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  let iso: string | undefined;
  if (m) iso = `${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}T${pad(m[4]!)}:${m[5]}:${m[6] ?? '00'}Z`;
  m = m ? null : /^(\d{1,2})\.(\d{1,2})\.(\d{4})[ T](\d{1,2}):(\d{2})$/.exec(s);
  if (m) iso = `${m[3]}-${pad(m[2]!)}-${pad(m[1]!)}T${pad(m[4]!)}:${m[5]}:00Z`;
  if (!iso && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s)) iso = s;
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const at = new Date(ms);
  // 2026-02-30 rolls over in Date.parse on some engines: the written day must be the day read.
  if (/Z$/.test(iso) && at.toISOString().slice(0, 10) !== iso.slice(0, 10)) return undefined;
  return { at: at.toISOString() };
}

const columnOf = (header: string): CsvColumn | undefined => {
  const h = header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
  return (CSV_COLUMNS as readonly string[]).includes(h) ? (h as CsvColumn) : HEADER_ALIASES[h];
};

/** Reads a CSV file's text into rows and their problems (each with its row number and field). */
export function parsePublicationCsv(text: string): CsvParse {
  const issues: CsvIssue[] = [];
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    delimitersToGuess: [';', ',', '\t'],
    skipEmptyLines: 'greedy',
  });
  const [header, ...data] = parsed.data;
  for (const e of parsed.errors) {
    if (e.code === 'UndetectableDelimiter') continue;
    issues.push({
      row: (e.row ?? 0) + 1,
      field: 'row',
      level: 'error',
      message: CSV_MESSAGES.parse,
      args: { detail: e.message },
    });
  }
  const columns = (header ?? []).map(columnOf);
  if (!header || !columns.includes('video')) {
    issues.push({ row: 1, field: 'video', level: 'error', message: CSV_MESSAGES.noHeader });
    return { rows: [], issues };
  }
  header.forEach((h, i) => {
    if (!columns[i] && h.trim())
      issues.push({
        row: 1,
        field: h.trim(),
        level: 'warning',
        message: CSV_MESSAGES.unknownColumn,
        args: { column: h.trim() },
      });
  });
  const rows = data.map((cells, i): CsvRow => {
    const row = i + 2;
    const cell = (c: CsvColumn) => {
      const at = columns.indexOf(c);
      return at < 0 ? '' : (cells[at] ?? '').trim();
    };
    const error = (field: CsvColumn, message: string, args?: Record<string, string | number>) =>
      issues.push({ row, field, level: 'error', message, ...(args ? { args } : {}) });
    if (!cell('video')) error('video', CSV_MESSAGES.required);
    if (!cell('profile') && !cell('group')) error('profile', CSV_MESSAGES.profileOrGroup);
    const platforms: PlatformKey[] = [];
    for (const p of listOf(cell('platforms')).map((x) => x.toLowerCase())) {
      if ((PLATFORMS as readonly string[]).includes(p)) {
        if (!platforms.includes(p as PlatformKey)) platforms.push(p as PlatformKey);
      } else error('platforms', CSV_MESSAGES.unknownPlatform, { platform: p });
    }
    if (!cell('platforms')) error('platforms', CSV_MESSAGES.required);
    if (!cell('title')) error('title', CSV_MESSAGES.required);
    let date: CsvDate | null = null;
    if (!cell('date')) error('date', CSV_MESSAGES.required);
    else {
      date = parseCsvDate(cell('date')) ?? null;
      if (!date) error('date', CSV_MESSAGES.badDate, { value: cell('date') });
    }
    const flag = cell('repeat').toLowerCase();
    if (!YES.has(flag) && !NO.has(flag)) error('repeat', CSV_MESSAGES.badFlag, { value: cell('repeat') });
    return {
      row,
      video: cell('video'),
      profile: cell('profile'),
      group: cell('group'),
      platforms: PLATFORMS.filter((p) => platforms.includes(p)),
      title: cell('title'),
      description: cell('description'),
      tags: listOf(cell('tags')),
      date,
      repeat: YES.has(flag),
    };
  });
  return { rows, issues };
}

/** One row of the export (the import's columns). */
export type CsvOut = {
  video: string;
  profile: string;
  group?: string;
  platforms: readonly PlatformKey[];
  title: string;
  description: string;
  tags: readonly string[];
  date: string;
  repeat: boolean;
};

/**
 * The CSV of `rows` as a spreadsheet in a Cyrillic locale opens it: a BOM, `;` between fields, quoted where
 * needed; lists (platforms, tags) comma-separated inside their field.
 */
export function publicationCsv(rows: readonly CsvOut[]): string {
  const body = Papa.unparse(
    {
      fields: [...CSV_COLUMNS],
      data: rows.map((r) => [
        r.video,
        r.profile,
        r.group ?? '',
        r.platforms.join(','),
        r.title,
        r.description,
        r.tags.join(','),
        r.date,
        r.repeat ? 'yes' : '',
      ]),
    },
    { delimiter: ';', newline: '\r\n', quotes: false },
  );
  return `\uFEFF${body}\r\n`;
}
