import { isMovable, type CalendarDay, type CalendarPost } from '../contract/calendar';
import { PLATFORM_TITLES } from '../contract/platforms';
import { STATE_COLORS } from '../publications/stateColors';
import { toCalendarTime } from './zonedCalendar';

/** A palette colour by its MUI name ('default' is grey). */
export type PaletteOf = (name: (typeof STATE_COLORS)[keyof typeof STATE_COLORS]) => string;

/**
 * A post's line in the calendar (an entry, a crowded day's list): a repeat's ↻, the profile's short name (channel
 * names may be alike), the platform and the title.
 */
export const postLine = (p: CalendarPost) =>
  (p.repeatOf > 0 ? '↻ ' : '') + [p.profileLabel, PLATFORM_TITLES[p.platform], p.title].filter(Boolean).join(' · ');

/**
 * One calendar entry per post: at its publish instant once published, else its due time; coloured by state;
 * only a post that has not started going out can be dragged. A repeat the operator allowed (the same file on the
 * same profile and platform again, issue 21 item 5) is marked with ↻ and the class `kadr-post-repeat`.
 */
export const toEvent = (p: CalendarPost, colorOf: PaletteOf, zone?: string) => {
  const color = colorOf(STATE_COLORS[p.state]);
  const at = p.publishedAt ?? p.dueAt;
  return {
    id: String(p.id),
    title: postLine(p),
    // Drawn in `zone` (the calendar runs in UTC and is shifted, zonedCalendar.ts); as is without one.
    start: zone ? toCalendarTime(at, zone) : at,
    allDay: false,
    editable: isMovable(p.state),
    backgroundColor: color,
    borderColor: color,
    classNames: [`kadr-post-${p.state}`, ...(p.repeatOf > 0 ? ['kadr-post-repeat'] : [])],
    extendedProps: { post: p, more: 0, seq: p.id },
  };
};

/**
 * The order entries are drawn in, the server's for a day's first posts (the calendar days answer): by the instant
 * drawn, then by post id; a day's "+N more" entry after its posts.
 */
export const EVENT_ORDER = 'more,start,seq';

/**
 * The month view's "+N more" of a crowded day: an entry of its own after the day's first posts (the day's other posts
 * are not loaded; a click opens the day's full list, asked for within the month's `range`). `day.day` is a date in the calendar's zone, and the calendar
 * draws that zone's wall times as UTC (zonedCalendar.ts): the day's midnight is `${day}T00:00:00Z`.
 */
export const toMoreEvent = (day: CalendarDay, range: { start: string; end: string }) => ({
  id: `more-${day.day}`,
  title: '',
  start: `${day.day}T00:00:00.000Z`,
  allDay: false,
  editable: false,
  classNames: ['kadr-more'],
  extendedProps: { more: day.count - day.posts.length, seq: 0, day, range },
});
