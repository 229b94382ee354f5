import { z } from 'zod';
import { PLATFORMS } from './platforms';

/**
 * Bulk import of publications from CSV (issue 21 item 4): the file's text is read (src/contract/publication-csv.ts),
 * each row checked against the caller's videos, profiles, groups, platforms, the horizon and the duplicate guard
 * (a dry run), and only a file without errors is written, all rows in one transaction.
 */

/** The largest file the API takes (about 10,000 rows with long descriptions). */
export const IMPORT_CSV_MAX_CHARS = 20 * 1024 * 1024;
export const IMPORT_ROWS_MAX = 10_000;

/** Messages (i18n keys) of the import's own checks (the file's are in publication-csv.ts CSV_MESSAGES). */
export const IM = {
  videoNotFound: 'kadr.imports.errors.video_not_found',
  videoNoFile: 'kadr.imports.errors.video_no_file',
  profileNotFound: 'kadr.imports.errors.profile_not_found',
  profileAmbiguous: 'kadr.imports.errors.profile_ambiguous',
  groupNotFound: 'kadr.imports.errors.group_not_found',
  groupEmpty: 'kadr.imports.errors.group_empty',
  notConnected: 'kadr.imports.warnings.not_connected',
  nothingConnected: 'kadr.imports.errors.nothing_connected',
  slotsNotAvailable: 'kadr.imports.errors.slots_not_available',
  beyondHorizon: 'kadr.publications.errors.beyond_horizon',
  inThePast: 'kadr.imports.warnings.in_the_past',
  repeatInFile: 'kadr.imports.errors.repeat_in_file',
  tooManyRows: 'kadr.imports.errors.too_many_rows',
  empty: 'kadr.imports.errors.empty',
  notWritten: 'kadr.imports.errors.not_written',
} as const;

export const ImportBodySchema = z.object({
  csv: z
    .string()
    .max(IMPORT_CSV_MAX_CHARS)
    .describe('The CSV file as text (UTF-8; `;` or `,`; columns video, profile, group, platforms, title, …)'),
});
export type ImportBody = z.infer<typeof ImportBodySchema>;

export const ImportIssueSchema = z.object({
  row: z.number().int().describe('The row number as a spreadsheet shows it (the header is row 1)'),
  field: z.string().describe('The column: video, profile, group, platforms, title, description, tags, date, repeat'),
  level: z.enum(['error', 'warning']),
  message: z.string().describe('An i18n key'),
  args: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  text: z.string().describe('The message in the caller’s language'),
});
export type ImportIssue = z.infer<typeof ImportIssueSchema>;

export const ImportRowSchema = z.object({
  row: z.number().int(),
  video: z.string(),
  videoId: z.number().int().nullable(),
  profile: z.string(),
  accounts: z.array(z.number().int()).describe('The profiles the row posts to (a group: its members)'),
  platforms: z.array(z.enum(PLATFORMS)),
  title: z.string(),
  date: z.string().nullable().describe('The instant it goes out, when known (its first profile’s post)'),
  timeZone: z
    .string()
    .nullable()
    .describe(
      'The zone its date was read in and is shown in: its first profile’s (a date written without a zone is each profile’s wall time)',
    ),
  repeat: z.boolean(),
  posts: z.number().int().describe('How many posts (profile × platform) the row writes'),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportReportSchema = z.object({
  rows: z.array(ImportRowSchema),
  issues: z.array(ImportIssueSchema),
  errors: z.number().int(),
  warnings: z.number().int(),
  posts: z.number().int().describe('Posts the file would write'),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

export const ImportDoneSchema = z.object({
  posts: z.number().int(),
  publications: z.array(z.number().int()),
});
export type ImportDone = z.infer<typeof ImportDoneSchema>;
