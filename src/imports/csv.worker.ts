import { decodeCsv, parsePublicationCsv } from '../contract/publication-csv';

/** What the worker answers for a file: its text, how many rows it has and how many of them the file itself spoils. */
export type CsvRead = { text: string; rows: number; errors: number };

/**
 * Reads a CSV file off the main thread (issue 21: 10,000 rows without a long task): the bytes decoded (UTF-8 or
 * Windows-1251, a BOM dropped) and parsed with papaparse, so the screen shows the count at once; the server
 * checks the rows against the database in the dry run.
 */
addEventListener('message', (e: MessageEvent<ArrayBuffer>) => {
  const text = decodeCsv(new Uint8Array(e.data));
  const { rows, issues } = parsePublicationCsv(text);
  const answer: CsvRead = { text, rows: rows.length, errors: issues.filter((i) => i.level === 'error').length };
  postMessage(answer);
});
