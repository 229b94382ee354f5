import type { CalendarPost } from '../../src/contract/calendar';
import { toEvent } from '../../src/calendar/calendarEvents';

const post = (over: Partial<CalendarPost>): CalendarPost => ({
  id: 7,
  videoId: 3,
  publicationId: 2,
  accountId: 5,
  profile: 'Кухня · #5',
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
      title: 'TikTok · Шортс',
      start: '2031-03-10T09:00:00.000Z',
      editable: true,
      backgroundColor: 'c-info',
    });
    expect(toEvent(post({ state: 'waiting' }), colorOf).editable).toBe(true);
    for (const state of ['uploading', 'processing', 'publishing', 'reconcile', 'published', 'failed'] as const)
      expect(toEvent(post({ state }), colorOf).editable).toBe(false);
    expect(toEvent(post({ state: 'failed' }), colorOf).backgroundColor).toBe('c-error');
  });

  it('a published post stands at the instant it went public', () => {
    const e = toEvent(post({ state: 'published', publishedAt: '2031-03-10T09:04:00.000Z' }), colorOf);
    expect(e).toMatchObject({ start: '2031-03-10T09:04:00.000Z', backgroundColor: 'c-success' });
  });

  it('an allowed repeat of the same file on the same profile and platform is marked', () => {
    const e = toEvent(post({ repeatOf: 4 }), colorOf);
    expect(e.title).toBe('↻ TikTok · Шортс');
    expect(e.classNames).toContain('kadr-post-repeat');
    expect(toEvent(post({}), colorOf).classNames).not.toContain('kadr-post-repeat');
  });
});
