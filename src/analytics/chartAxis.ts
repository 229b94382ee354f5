/**
 * What the charts' axes show: counts in the reader's language, short (12 тис. / 12K), a day as its date and short
 * month, and a value axis wide enough for its longest label (MUI X Charts 8.9 gives the y-axis a fixed 45 px
 * and cuts a longer label to "0.0…": the width is ours to give).
 */

/** A count as a short label: 950, 12K, 1.2M (in `locale`'s words). */
export const compactCount = (locale: string) => {
  const format = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  return (v: number | null) => (v === null ? '' : format.format(v));
};

/** A `YYYY-MM-DD` day as its date and short month ("26 лист.", "Nov 26"). */
export const shortDay = (locale: string) => {
  const format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (day: string) => format.format(new Date(`${day}T00:00:00Z`));
};

/** About the widest glyph of the axis' 12 px font (digits, letters of "тис."), and the tick's own length. */
const CHAR_PX = 7.5;
const TICK_PX = 14;

/**
 * The y-axis' width for values up to `max`: its longest tick label (the axis' ticks are "nice" numbers up to a
 * little over the maximum, so the next power of ten's labels are measured too) plus the tick.
 */
export function valueAxisWidth(max: number, label: (v: number) => string): number {
  const top = max > 0 ? 10 ** Math.ceil(Math.log10(max)) : 1;
  const longest = Math.max(...[max, top, top / 2, top * 0.75].map((v) => label(v).length), 1);
  return Math.ceil(longest * CHAR_PX + TICK_PX);
}
