import { instantOf, wallOf } from '../contract/time-zones';

/**
 * FullCalendar draws in one named zone only with a plugin; Kadr draws in UTC and shifts instead (issue 21 item
 * 2): an instant becomes the UTC date whose fields are its wall time in `zone`, and a date FullCalendar gives
 * back (a drop, the visible range) is read as a wall time in `zone` again. So a post due at 18:00 in Kyiv sits at
 * 18:00 in the calendar of a Kyiv profile, on both sides of a DST change.
 */
export const toCalendarTime = (iso: string, zone: string): string => {
  const w = wallOf(zone, iso);
  return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)).toISOString();
};

/** Now on the calendar's clock: the zone's wall time now, as UTC fields. */
export const nowInCalendar = (zone: string, at = new Date()): Date => new Date(toCalendarTime(at.toISOString(), zone));

/** A date FullCalendar gives back (its UTC fields are a wall time in `zone`) → the instant. */
export const fromCalendarTime = (d: Date, zone: string): Date =>
  instantOf(zone, {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  });

/** A FullCalendar day cell's date → its key 'YYYY-MM-DD' (the capacity view's day in the profile's zone). */
export const cellDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A post moved onto another day of the month (a drop on a day cell: FullCalendar gives the day's midnight, its UTC
 * fields the date in `zone`): that day at the post's time of day in `zone` (`at`, the instant it is due), as a drag
 * within the month grid keeps it.
 */
export const onDayOf = (day: Date, at: string, zone: string): Date => {
  const w = wallOf(zone, at);
  return instantOf(zone, {
    year: day.getUTCFullYear(),
    month: day.getUTCMonth() + 1,
    day: day.getUTCDate(),
    hour: w.hour,
    minute: w.minute,
  });
};
