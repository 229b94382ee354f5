import { describe, expect, it } from 'vitest';
import {
  csvDateIn,
  decodeCsv,
  parseCsvDate,
  parsePublicationCsv,
  publicationCsv,
  type WallTime,
} from '../../src/contract/publication-csv';

/** Issue 21 item 4: the CSV a spreadsheet writes, read into rows with their problems, and written back. */
describe('publication CSV', () => {
  const HEADER = 'video;profile;group;platforms;title;description;tags;date;repeat';

  it('reads semicolons, Cyrillic and quoted fields (a separator and a new line inside quotes)', () => {
    const text = `${HEADER}\r\n12;Кухня;;youtube,tiktok;"Борщ; крок 1";"Рецепт\nз буряком";"їжа,борщ";2026-12-01 18:00;\r\n`;
    const { rows, issues } = parsePublicationCsv(text);
    expect(issues).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        video: '12',
        profile: 'Кухня',
        group: '',
        platforms: ['youtube', 'tiktok'],
        title: 'Борщ; крок 1',
        description: 'Рецепт\nз буряком',
        tags: ['їжа', 'борщ'],
        date: { wall: { year: 2026, month: 12, day: 1, hour: 18, minute: 0, second: 0 } },
        repeat: false,
      },
    ]);
  });

  it('reads commas too, and Ukrainian headers', () => {
    const text = 'відео,профіль,платформи,назва,дата\n7,3,"instagram",Привіт,2026-12-02T09:30:00+02:00\n';
    const { rows, issues } = parsePublicationCsv(text);
    expect(issues).toEqual([]);
    expect(rows[0]).toMatchObject({ video: '7', profile: '3', platforms: ['instagram'], title: 'Привіт' });
    expect(rows[0]!.date).toEqual({ at: '2026-12-02T07:30:00.000Z' });
  });

  it('tolerates a UTF-8 BOM and falls back to Windows-1251', () => {
    const utf8 = new TextEncoder().encode(`\uFEFF${HEADER}\n1;Кухня;;youtube;Назва;;;next slot;\n`);
    const a = parsePublicationCsv(decodeCsv(utf8));
    expect(a.issues).toEqual([]);
    expect(a.rows[0]).toMatchObject({ video: '1', profile: 'Кухня', date: { nextSlot: true } });
    // "Кухня" in Windows-1251.
    const cp1251 = new Uint8Array([0xca, 0xf3, 0xf5, 0xed, 0xff]);
    expect(decodeCsv(cp1251)).toBe('Кухня');
  });

  it('names the row and field of each problem', () => {
    const text = `${HEADER}\n;;;myspace;;;;31.02.2026 10:00;maybe\n5;Кухня;;youtube;Назва;;;вчора;\n`;
    const { issues } = parsePublicationCsv(text);
    const at = issues.map((i) => [i.row, i.field, i.level]);
    expect(at).toEqual(
      expect.arrayContaining([
        [2, 'video', 'error'],
        [2, 'profile', 'error'],
        [2, 'platforms', 'error'],
        [2, 'title', 'error'],
        [2, 'date', 'error'],
        [2, 'repeat', 'error'],
        [3, 'date', 'error'],
      ]),
    );
    expect(issues.filter((i) => i.row === 3)).toHaveLength(1);
  });

  it('warns of an unknown column and refuses a file without a video column', () => {
    expect(
      parsePublicationCsv('video;profile;platforms;title;date;колір\n1;2;youtube;t;next;червоний\n').issues,
    ).toEqual([
      {
        row: 1,
        field: 'колір',
        level: 'warning',
        message: 'kadr.imports.warnings.unknown_column',
        args: { column: 'колір' },
      },
    ]);
    expect(parsePublicationCsv('a;b\n1;2\n').issues[0]).toMatchObject({ row: 1, field: 'video', level: 'error' });
  });

  it('dates: ISO with a zone (an instant), "YYYY-MM-DD HH:mm" and the locale form (wall times), next slot; nonsense refused', () => {
    const wall = { year: 2026, month: 12, day: 1, hour: 8, minute: 5 };
    expect(parseCsvDate('2026-12-01 08:05')).toEqual({ wall: { ...wall, second: 0 } });
    expect(parseCsvDate('2026-12-01 08:05:30')).toEqual({ wall: { ...wall, second: 30 } });
    expect(parseCsvDate('01.12.2026 08:05')).toEqual({ wall: { ...wall, second: 0 } });
    expect(parseCsvDate('2026-12-01T08:05:00Z')).toEqual({ at: '2026-12-01T08:05:00.000Z' });
    expect(parseCsvDate('2026-12-01T08:05:00+02:00')).toEqual({ at: '2026-12-01T06:05:00.000Z' });
    expect(parseCsvDate('Наступний слот')).toEqual({ nextSlot: true });
    for (const bad of ['2026-02-30 10:00', '30.02.2026 10:00', '2026-12-01 24:00', '2026-02-30T10:00:00Z', 'tomorrow'])
      expect(parseCsvDate(bad), bad).toBeUndefined();
  });

  it("a wall time is read in each profile's zone, across DST; an instant stays as written", () => {
    const read = (cell: string, zone: string) => csvDateIn(parseCsvDate(cell) as { wall: WallTime }, zone);
    expect(read('2026-12-01 18:00', 'UTC')).toBe('2026-12-01T18:00:00.000Z');
    expect(read('01.12.2026 18:00', 'Europe/Kyiv')).toBe('2026-12-01T16:00:00.000Z'); // EET, +2
    expect(read('2026-07-01 18:00:15', 'Europe/Kyiv')).toBe('2026-07-01T15:00:15.000Z'); // EEST, +3
    expect(read('2026-03-08 18:00', 'America/New_York')).toBe('2026-03-08T22:00:00.000Z'); // EDT from that day
    // Kyiv skips 03:00–04:00 on 29 March 2026: a time in the gap is the first minute after it.
    expect(read('29.03.2026 03:30', 'Europe/Kyiv')).toBe('2026-03-29T01:00:00.000Z');
    expect(csvDateIn({ at: '2026-12-01T08:05:00.000Z' }, 'Europe/Kyiv')).toBe('2026-12-01T08:05:00.000Z');
  });

  it('an exported file reads back into the same rows', () => {
    const out = [
      {
        video: '12',
        profile: '3',
        platforms: ['youtube', 'instagram'] as const,
        title: 'Борщ; "крок" 1',
        description: 'Два\nрядки, кома',
        tags: ['їжа', 'борщ'],
        date: '2026-12-01T18:00:00.000Z',
        repeat: true,
      },
    ];
    const { rows, issues } = parsePublicationCsv(decodeCsv(new TextEncoder().encode(publicationCsv(out))));
    expect(issues).toEqual([]);
    expect(rows).toEqual([
      {
        row: 2,
        video: '12',
        profile: '3',
        group: '',
        platforms: ['youtube', 'instagram'],
        title: 'Борщ; "крок" 1',
        description: 'Два\nрядки, кома',
        tags: ['їжа', 'борщ'],
        date: { at: '2026-12-01T18:00:00.000Z' },
        repeat: true,
      },
    ]);
  });
});
