import Papa from 'papaparse';
import { PLATFORMS, type PlatformKey } from './platforms';
import { instantOf, type Wall } from './time-zones';

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

/**
 * A row's date: an instant (written with its zone), a wall-clock time (written without one: read in each profile's
 * own time zone), or "next slot" (the profile's next free posting slot).
 */
export type CsvDate = { at: string } | { wall: WallTime } | { nextSlot: true };

/** A wall-clock time as a spreadsheet writes it, to the second. */
export type WallTime = Wall & { second: number };

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

/**
 * A date cell: ISO 8601 with a zone ("Z" or an offset: the instant it names); "YYYY-MM-DD HH:mm[:ss]" or the
 * Ukrainian locale's "DD.MM.YYYY HH:mm" (a wall-clock time, read in each profile's own time zone); or "next slot".
 * Undefined when unreadable (2026-02-30 too).
 */
export function parseCsvDate(cell: string): CsvDate | undefined {
  const s = cell.trim();
  if (NEXT_SLOT.has(s.toLowerCase())) return { nextSlot: true };
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s)) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) || !wallExists(wallOfIso(s)) ? undefined : { at: new Date(ms).toISOString() };
  }
  const wall = isoWallOf(s) ?? dottedWallOf(s);
  return wall && wallExists(wall) ? { wall } : undefined;
}

/** `2030-01-10 18:00[:ss]` (or with a `T`): a wall time. */
const isoWallOf = (s: string): WallTime | undefined =>
  /^\d{4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{2}(:\d{2})?$/.test(s) ? wallOfIso(s) : undefined;

/** `10.01.2030 18:00`, as a spreadsheet in Ukrainian writes it: a wall time. */
function dottedWallOf(s: string): WallTime | undefined {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})[ T](\d{1,2}):(\d{2})$/.exec(s);
  if (!m) return undefined;
  const [day, month, year, hour, minute] = m.slice(1).map(Number);
  return { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: 0 };
}

/** The date and time an ISO 8601 text writes (before its zone, if any). */
const wallOfIso = (s: string): WallTime => {
  const [y, mo, d, h, mi, sec] = s.match(/\d+/g)!.map(Number);
  return { year: y!, month: mo!, day: d!, hour: h!, minute: mi!, second: sec ?? 0 };
};

/** A wall-clock time that is on the calendar and the clock (no 30 February, no 24:00). */
function wallExists(w: WallTime): boolean {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
  return (
    d.getUTCFullYear() === w.year &&
    d.getUTCMonth() === w.month - 1 &&
    d.getUTCDate() === w.day &&
    d.getUTCHours() === w.hour &&
    d.getUTCMinutes() === w.minute &&
    d.getUTCSeconds() === w.second
  );
}

/** The instant a row's written date names for a profile in `zone` (an instant as written; a wall time in the zone). */
export function csvDateIn(date: { at: string } | { wall: WallTime }, zone: string): string {
  if ('at' in date) return date.at;
  return new Date(instantOf(zone, date.wall).getTime() + date.wall.second * 1000).toISOString();
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
