import type { CalendarPost } from '../../src/contract/calendar';
import { toEvent, toMoreEvent } from '../../src/calendar/calendarEvents';
import { firstOfDays, rangeDays } from '../../server/calendar/calendar-days';

const post = (over: Partial<CalendarPost>): CalendarPost => ({
  id: 7,
  videoId: 3,
  publicationId: 2,
  accountId: 5,
  profile: 'Кухня · #5',
  profileLabel: '#5 · Кухня',
  platform: 'tiktok',
  state: 'scheduled',
  dueAt: '2031-03-10T09:00:00.000Z',
  publishedAt: null,
  title: 'Шортс',
  repeatOf: 0,
  ...over,
});
const colorOf = (name: string) => `c-${name}`;

describe('calendar entries', () => {
  it('one entry per post, coloured by state, draggable only before it starts going out', () => {
    expect(toEvent(post({}), colorOf)).toMatchObject({
      id: '7',
      title: '#5 · Кухня · TikTok · Шортс',
      start: '2031-03-10T09:00:00.000Z',
      editable: true,
      backgroundColor: 'c-info',
    });
    expect(toEvent(post({ state: 'waiting' }), colorOf).editable).toBe(true);
    for (const state of ['uploading', 'processing', 'publishing', 'reconcile', 'published', 'failed'] as const)
      expect(toEvent(post({ state }), colorOf).editable).toBe(false);
    expect(toEvent(post({ state: 'failed' }), colorOf).backgroundColor).toBe('c-error');
  });

  it('an entry names its profile first (channel names may be alike), and none when the post has no profile', () => {
    expect(toEvent(post({ profileLabel: '#6' }), colorOf).title).toBe('#6 · TikTok · Шортс');
    expect(toEvent(post({ accountId: null, profile: '', profileLabel: '' }), colorOf).title).toBe('TikTok · Шортс');
    expect(toEvent(post({ profileLabel: '', repeatOf: 4 }), colorOf).title).toBe('↻ TikTok · Шортс');
  });

  it('a published post stands at the instant it went public', () => {
    const e = toEvent(post({ state: 'published', publishedAt: '2031-03-10T09:04:00.000Z' }), colorOf);
    expect(e).toMatchObject({ start: '2031-03-10T09:04:00.000Z', backgroundColor: 'c-success' });
  });

  it('an allowed repeat of the same file on the same profile and platform is marked', () => {
    const e = toEvent(post({ repeatOf: 4 }), colorOf);
    expect(e.title).toBe('↻ #5 · Кухня · TikTok · Шортс');
    expect(e.classNames).toContain('kadr-post-repeat');
    expect(toEvent(post({}), colorOf).classNames).not.toContain('kadr-post-repeat');
  });

  it("a crowded day of the month view ends in its own '+N more' entry, after its posts, not draggable", () => {
    const first = [post({ id: 9 }), post({ id: 11 }), post({ id: 12 }), post({ id: 20 })];
    const day = {
      day: '2031-03-10',
      start: '2031-03-09T22:00:00.000Z',
      end: '2031-03-10T22:00:00.000Z',
      count: 84,
      posts: first,
    };
    const range = { start: '2031-02-23T22:00:00.000Z', end: '2031-04-06T21:00:00.000Z' };
    const more = toMoreEvent(day, range);
    expect(more).toMatchObject({ start: '2031-03-10T00:00:00.000Z', editable: false, classNames: ['kadr-more'] });
    expect(more.extendedProps).toMatchObject({ more: 80, day, range });
    // EVENT_ORDER ('more,start,seq'): posts (more 0) by instant then id, the "+N more" (more 1+) last.
    expect(toEvent(first[0]!, colorOf).extendedProps).toMatchObject({ more: 0, seq: 9 });
  });

  it("cuts a range into a zone's days at local midnights, a DST day being one day", () => {
    // New York falls back on 2 November 2031: that day has 25 hours.
    const r = rangeDays('2031-11-01T04:00:00.000Z', '2031-11-04T05:00:00.000Z', 'America/New_York');
    expect(r.keys).toEqual(['2031-11-01', '2031-11-02', '2031-11-03']);
    expect(r.bounds).toEqual([
      '2031-11-01T04:00:00.000Z',
      '2031-11-02T04:00:00.000Z',
      '2031-11-03T05:00:00.000Z',
      '2031-11-04T05:00:00.000Z',
    ]);
    // A range starting and ending mid-day: its first and last days cut short.
    expect(rangeDays('2031-03-10T12:00:00.000Z', '2031-03-11T06:00:00.000Z', 'UTC')).toEqual({
      keys: ['2031-03-10', '2031-03-11'],
      bounds: ['2031-03-10T12:00:00.000Z', '2031-03-11T00:00:00.000Z', '2031-03-11T06:00:00.000Z'],
    });
  });

  it("ranks a day's posts as drawn (instant, then id), counts them all, leaves out posts outside the days", () => {
    const bounds = ['2031-03-10T00:00:00.000Z', '2031-03-11T00:00:00.000Z', '2031-03-12T00:00:00.000Z'];
    const at = (t: string) => `2031-03-${t}:00.000Z`;
    const posts = [
      { id: 5, at: at('10T18:00') },
      { id: 3, at: at('10T18:00') },
      { id: 9, at: at('10T06:00') },
      { id: 1, at: at('10T23:59') },
      { id: 2, at: at('10T20:00') },
      { id: 7, at: at('11T00:00') },
      { id: 8, at: at('09T23:59') },
      { id: 6, at: at('12T00:00') },
    ];
    expect(firstOfDays(posts, bounds, 4)).toEqual([
      { day: 0, count: 5, ids: [9, 3, 5, 2] },
      { day: 1, count: 1, ids: [7] },
    ]);
  });
});
