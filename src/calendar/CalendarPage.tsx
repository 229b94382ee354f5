import {
  memo,
  useCallback,
  useDeferredValue,
  useInsertionEffect,
  useMemo,
  useRef,
  useState,
  type RefObject,
} from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  MenuItem,
  Stack,
  TextField,
  Typography,
  alpha,
  useTheme,
  type Theme,
} from '@mui/material';
import { Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import FullCalendar from '@fullcalendar/react';
import type { CalendarOptions, EventSourceFuncArg, EventInput } from '@fullcalendar/core';
import ukLocale from '@fullcalendar/core/locales/uk';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import interactionPlugin from '@fullcalendar/interaction';
import {
  CALENDAR_DAY_POSTS,
  CALENDAR_POSTS_MAX,
  CalendarDaysAnswerSchema,
  type CalendarDay,
  type CalendarDaysAnswer,
  type CalendarFilter,
  type CalendarPost,
} from '../contract/calendar';
import { PLATFORMS, PLATFORM_TITLES } from '../contract/platforms';
import { PUBLISH_STATES } from '../contract/publications';
import { profileText } from '../contract/profile-identity';
import { errorMessages } from '../common/errorMessages';
import { useIsSmall } from '../common/useIsSmall';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailPath } from '../publications/paths';
import { useAccountOptions, useGroups } from '../publications/options';
import { EVENT_ORDER, toEvent, toMoreEvent, type PaletteOf } from './calendarEvents';
import { DayPostsPopover, type OpenDay } from './DayPostsPopover';
import { cellDay, fromCalendarTime, nowInCalendar, onDayOf } from './zonedCalendar';
import { formatInZone, zoneLabel } from '../contract/time-zones';
import { useProfileZone } from '../slots/useProfileZone';
import { OverDaysMarker, markOver } from './OverDaysMarker';
import { takePrefetched } from './monthPrefetch';
import { API } from '../contract/endpoints';
import { parseAnswer } from '../providers/parseAnswer';

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const LOCALES = [ukLocale];
/**
 * The list view is a week's: a month's list is thousands of rows for a busy studio (7,000 posts for an admin in the
 * bench), slow to read and to scroll, where a week's is what a phone user looks through.
 */
const VIEWS = 'dayGridMonth,timeGridWeek,timeGridDay,listWeek';
/** Posts shown in one day of the month (and side by side in a week's hour) before "+N more". */
const DAY_MAX_EVENTS = CALENDAR_DAY_POSTS;
/**
 * A range longer than five weeks is the month grid's (six weeks; the list view's month is at most 31 days, a week
 * 7): FullCalendar's event source is not told the view.
 */
const MONTH_GRID_MS = 35 * 24 * 3600_000;
/**
 * Times on a 24-hour clock in both languages ('00:00', '18:30'), as the rest of the panel writes them (formatInZone,
 * formatUtc) and the day's list does: the entries' times and the week's and day's hours.
 */
const TIME_FORMAT = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
/** The month grid is given each day's first posts and its own "+N more" entry: FullCalendar cuts nothing there. */
const VIEW_OPTIONS = { dayGridMonth: { dayMaxEvents: false } };

const nextTask = () => new Promise<void>((done) => setTimeout(done, 0));

/**
 * FullCalendar's event source: the posts of the range it shows, through the dataProvider. The month grid asks for
 * its days only (the dataProvider's calendarDays: each day's first posts and its count, in the calendar's zone) and draws a
 * crowded day's "+N more" itself; the week, day and list views ask for every post of their range.
 */
const postsSource =
  (o: {
    dataProvider: KadrDataProvider;
    filter: CalendarFilter;
    zone: string;
    colorOf: PaletteOf;
    onTruncated: (truncated: boolean) => void;
    onError: (e: unknown) => void;
  }) =>
  (info: EventSourceFuncArg, ok: (events: EventInput[]) => void, fail: (e: Error) => void) => {
    const range = {
      start: fromCalendarTime(info.start, o.zone).toISOString(),
      end: fromCalendarTime(info.end, o.zone).toISOString(),
    };
    const month = info.end.getTime() - info.start.getTime() > MONTH_GRID_MS;
    const days = { ...o.filter, ...range, zone: o.zone };
    const monthEvents = (answer: CalendarDaysAnswer) => {
      o.onTruncated(false);
      return answer.days.flatMap((d: CalendarDay) => [
        ...d.posts.map((p) => toEvent(p, o.colorOf, o.zone)),
        ...(d.count > d.posts.length ? [toMoreEvent(d, range)] : []),
      ]);
    };
    // A cold page's first month was asked for before this code loaded (monthPrefetch.ts, from src/boot.ts); its answer is
    // handed over no sooner than the next task, so FullCalendar draws its empty grid in this one and the posts in
    // that one (in one pass both took 0.1 s of main thread on a quiet machine, twice that under load). If it
    // failed, or is not the answer expected, the month is asked for again.
    const prefetched = month ? takePrefetched(days) : undefined;
    const monthDays = prefetched
      ? Promise.all([prefetched, nextTask()])
          .then(([json]) => parseAnswer(CalendarDaysAnswerSchema, `GET ${API.calendar.days}`, json))
          .catch(() => o.dataProvider.calendarDays(days))
      : o.dataProvider.calendarDays(days);
    const events: Promise<EventInput[]> = month
      ? monthDays.then(monthEvents)
      : o.dataProvider.calendarPosts({ ...o.filter, ...range }).then((answer) => {
          o.onTruncated(answer.truncated);
          return answer.data.map((p) => toEvent(p, o.colorOf, o.zone));
        });
    events.then(ok).catch((e: Error) => {
      o.onError(e);
      fail(e);
    });
  };

/** The calendar's callbacks: made once per page, reading the page's current values through a ref. */
type Handlers = Pick<
  CalendarOptions,
  'datesSet' | 'dayCellDidMount' | 'eventContent' | 'eventClick' | 'eventDidMount' | 'eventDrop' | 'drop'
>;
const PHONE_TOOLBAR = { left: 'prev,next', center: 'title', right: 'today' };
const WIDE_TOOLBAR = { left: 'prev,next today', center: 'title', right: VIEWS };
const PHONE_FOOTER = { center: VIEWS };

/**
 * FullCalendar with its options, redrawn only when one of them changes: a render of the page around it (a filter's
 * options answered, the popover opened or closed) leaves it alone. FullCalendar takes every render of its React
 * component as new options and, when any differs (a callback made anew counts), redraws the whole month: 0.1–0.6 s
 * of main thread with a month of posts.
 */
const PostsCalendar = memo(function PostsCalendar({
  small,
  locale,
  buttonText,
  hints,
  events,
  handlers,
  calendarRef,
  zone,
}: {
  small: boolean;
  locale: string;
  zone: string;
  buttonText: CalendarOptions['buttonText'];
  /** Its texts for screen readers and hovers (FullCalendar's Ukrainian locale has none: they were English). */
  hints: Pick<CalendarOptions, 'timeHint' | 'eventHint' | 'closeHint' | 'viewHint' | 'navLinkHint' | 'moreLinkHint'>;
  events: CalendarOptions['events'];
  handlers: Handlers;
  calendarRef: RefObject<FullCalendar | null>;
}) {
  // Its clock runs in UTC (zonedCalendar.ts): "today" is the calendar zone's date, not UTC's.
  const now = useCallback(() => nowInCalendar(zone), [zone]);
  return (
    <FullCalendar
      ref={calendarRef}
      // Its first view is read once: a phone (known after the first render) gets a calendar of its own.
      key={small ? 'phone' : 'wide'}
      plugins={PLUGINS}
      locales={LOCALES}
      locale={locale === 'uk' ? 'uk' : 'en'}
      initialView={small ? 'listWeek' : 'dayGridMonth'}
      headerToolbar={small ? PHONE_TOOLBAR : WIDE_TOOLBAR}
      footerToolbar={small ? PHONE_FOOTER : undefined}
      buttonText={buttonText}
      {...hints}
      timeZone="UTC"
      now={now}
      height="auto"
      // A crowded day shows its first posts and "+N more" (a popover with the rest): with the height set by the
      // content, FullCalendar's `true` would never cut a day short. The month grid is given only each day's first
      // posts and its own "+N more" entry (the day's full list is asked for when it opens), so it cuts nothing.
      dayMaxEvents={DAY_MAX_EVENTS}
      eventMaxStack={DAY_MAX_EVENTS}
      views={VIEW_OPTIONS}
      eventOrder={EVENT_ORDER}
      // A post is an instant: one that falls late in the evening never spreads into the next day.
      defaultTimedEventDuration="00:01"
      eventTimeFormat={TIME_FORMAT}
      slotLabelFormat={TIME_FORMAT}
      nextDayThreshold="00:01"
      editable
      eventDurationEditable={false}
      displayEventEnd={false}
      // A post dragged out of a crowded day's list (DayPostsPopover) is dropped here like one of the grid's own.
      droppable
      dropAccept="[data-movable]"
      events={events}
      {...handlers}
    />
  );
});

/**
 * The calendar of everything scheduled and published (issue 21 item 1): month, week, day and list views, one
 * entry per post coloured by state, "+N more" in a crowded day (the month grid loads each day's first posts and its
 * count; the day's list when its "+N more" opens), filters by profile, group, platform and state.
 * A click opens the post's publication; a scheduled post dragged to another time, from the grid or from a crowded
 * day's list, is moved by the server (a refusal says why and the entry goes back). On a phone the list view comes
 * first.
 */
export const CalendarPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const theme = useTheme();
  const [locale] = useLocaleState();
  const small = useIsSmall();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data: profiles = [] } = useAccountOptions();
  const { data: groups = [] } = useGroups();
  const [filter, setFilter] = useState<CalendarFilter>({});
  const [truncated, setTruncated] = useState(false);
  const [openDay, setOpenDay] = useState<OpenDay | null>(null);
  const set = (patch: CalendarFilter) => setFilter((f) => ({ ...f, ...patch }));
  // Issue 21 item 2: times in the chosen profile's zone (else the operator's), the zone named above the calendar.
  const zone = useProfileZone(filter.accountId);
  // The visible range goes to the over-budget marker, not to this page's state: the calendar never re-renders
  // for it (a re-render mid-drag drops the drag).
  const rangeRef = useRef<(r: { start: string; end: string }) => void>(() => undefined);
  // The zone's short name as of when the page opened (EET / EEST).
  const [openedAt] = useState(() => Date.now());
  const overRef = useRef(new Set<string>());
  const boxRef = useRef<HTMLDivElement>(null);
  const calendarRef = useRef<FullCalendar>(null);
  const overTitle = translate('kadr.slots.over_budget');
  // The filters and the calendar are drawn in a render of their own after the page's first (a deferred one, which
  // React does in slices): on a cold page the panel's shell and FullCalendar's first drawing of the month are each
  // about 0.1 s of main thread, and together with the filters one long task.
  const drawCalendar = useDeferredValue(true, false);

  const colorOf: PaletteOf = useCallback(
    (name) => (name === 'default' ? theme.palette.grey[500] : theme.palette[name].main),
    [theme],
  );
  const report = useCallback(
    (e: unknown) => {
      for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
    },
    [notify, translate],
  );
  // A new source (so a refetch) when a filter changes, and only then.
  const events = useMemo(
    () => postsSource({ dataProvider, filter, zone, colorOf, onTruncated: setTruncated, onError: report }),
    [dataProvider, filter, zone, colorOf, report],
  );
  const buttonText = useMemo(
    () => ({
      today: translate('kadr.calendar.views.today'),
      month: translate('kadr.calendar.views.month'),
      week: translate('kadr.calendar.views.week'),
      day: translate('kadr.calendar.views.day'),
      list: translate('kadr.calendar.views.list'),
    }),
    [translate],
  );
  const hints = useMemo(
    () => ({
      timeHint: translate('kadr.calendar.hints.time'),
      eventHint: translate('kadr.calendar.hints.event'),
      closeHint: translate('kadr.calendar.hints.close'),
      viewHint: translate('kadr.calendar.hints.view'),
      navLinkHint: translate('kadr.calendar.hints.nav_link'),
      moreLinkHint: translate('kadr.calendar.hints.more_link'),
    }),
    [translate],
  );

  // What the callbacks read, always current; the callbacks themselves are made once.
  const live = useRef({
    translate,
    notify,
    navigate,
    report,
    dataProvider,
    zone,
    locale,
    overTitle,
    overRef,
    rangeRef,
  });
  // Updated before any layout effect runs: FullCalendar calls back from its own (componentDidUpdate), which run
  // before this component's layout effects.
  useInsertionEffect(() => {
    live.current = { translate, notify, navigate, report, dataProvider, zone, locale, overTitle, overRef, rangeRef };
  });
  const handlers = useMemo((): Handlers => {
    /** Moves a post to `at`; the month grid (each day's first posts and counts) is asked for again. */
    const move = (id: number, at: Date, view: { type: string }, revert?: () => void) => {
      const l = live.current;
      return l.dataProvider
        .movePost(id, at.toISOString())
        .then(() => {
          l.notify('kadr.calendar.moved', { type: 'success', messageArgs: { at: formatInZone(at, l.zone, l.locale) } });
          if (view.type === 'dayGridMonth') calendarRef.current?.getApi().refetchEvents();
        })
        .catch((e: unknown) => {
          revert?.();
          l.report(e);
        });
    };
    return {
      datesSet: (arg) => {
        const l = live.current;
        const start = fromCalendarTime(arg.start, l.zone).toISOString();
        const end = fromCalendarTime(arg.end, l.zone).toISOString();
        l.rangeRef.current({ start, end });
      },
      dayCellDidMount: (arg) =>
        markOver(arg.el, live.current.overRef.current.has(cellDay(arg.date)), live.current.overTitle),
      eventContent: (arg) => {
        const more = arg.event.extendedProps.more as number;
        return more > 0 ? live.current.translate('kadr.calendar.more', { count: more }) : true;
      },
      eventClick: (arg) => {
        arg.jsEvent.preventDefault();
        const { day, range } = arg.event.extendedProps as { day?: CalendarDay; range?: OpenDay['range'] };
        if (day && range) return setOpenDay({ day, range, anchor: arg.el });
        const post = arg.event.extendedProps.post as CalendarPost;
        void live.current.navigate(detailPath(String(post.publicationId)));
      },
      eventDidMount: (arg) => {
        const l = live.current;
        const more = arg.event.extendedProps.more as number;
        if (more > 0) {
          arg.el.dataset.more = String(more);
          arg.el.title = l.translate('kadr.calendar.more_title', { smart_count: more });
          return;
        }
        const post = arg.event.extendedProps.post as CalendarPost;
        arg.el.dataset.postId = String(post.id);
        arg.el.dataset.state = post.state;
        arg.el.dataset.at = formatInZone(post.publishedAt ?? post.dueAt, l.zone, l.locale);
        arg.el.title = `${post.profile} · ${arg.event.title} · ${arg.el.dataset.at}`;
      },
      eventDrop: (arg) => {
        if (!arg.event.start) return arg.revert();
        void move(Number(arg.event.id), fromCalendarTime(arg.event.start, live.current.zone), arg.view, arg.revert);
      },
      // A post dragged out of a crowded day's list: onto a day of the month it keeps its time of day (as a drag in
      // the grid does), onto a week's or a day's hour it takes that time.
      drop: (arg) => {
        const id = Number(arg.draggedEl.dataset.postId);
        const due = arg.draggedEl.dataset.due;
        if (!id || !due) return;
        setOpenDay(null);
        const zone = live.current.zone;
        const at = arg.allDay ? onDayOf(arg.date, due, zone) : fromCalendarTime(arg.date, zone);
        void move(id, at, arg.view);
      },
    };
  }, []);

  const profile = profiles.find((p) => Number(p.value) === filter.accountId) ?? null;
  return (
    // A post's title longer than its day ends in an ellipsis (the whole of it is the entry's tooltip); a day over a
    // budget is shaded.
    <Box
      sx={{
        p: { xs: 1, sm: 2 },
        '& .fc-event-title': { textOverflow: 'ellipsis' },
        // On a phone the range's title ('23 – 29 лист. 2026 р.') gets a line of its own above the arrows and
        // "today" (squeezed between them at FullCalendar's 1.75em it took three).
        '@media (max-width: 599.95px)': {
          '& .fc .fc-header-toolbar': { flexWrap: 'wrap', rowGap: 1 },
          '& .fc .fc-header-toolbar > .fc-toolbar-chunk:nth-of-type(2)': { order: -1, flexBasis: '100%' },
          '& .fc .fc-toolbar-title': { fontSize: '1.25rem', textAlign: 'center' },
        },
        '& .kadr-over': { backgroundColor: alpha(theme.palette.error.main, 0.12) },
        '& .kadr-more': { cursor: 'pointer', fontWeight: 500, color: theme.palette.text.primary },
        ...calendarColors(theme),
      }}
      data-calendar
      ref={boxRef}
    >
      <Title title={translate('kadr.calendar.title')} />
      {drawCalendar && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }} useFlexGap flexWrap="wrap">
          <Autocomplete
            size="small"
            sx={{ minWidth: 220 }}
            options={profiles}
            value={profile}
            getOptionLabel={(o) => profileText(o)}
            getOptionKey={(o) => o.id}
            isOptionEqualToValue={(a, b) => a.value === b.value}
            onChange={(_, next) => set({ accountId: next ? Number(next.value) : undefined })}
            renderInput={(params) => <TextField {...params} label={translate('kadr.calendar.filters.profile')} />}
          />
          <FilterSelect
            minWidth={160}
            label={translate('kadr.calendar.filters.group')}
            value={filter.groupId}
            onChange={(v) => set({ groupId: v ? Number(v) : undefined })}
            options={groups.map((g) => ({ value: g.id, label: g.name }))}
          />
          <FilterSelect
            minWidth={140}
            label={translate('kadr.calendar.filters.platform')}
            value={filter.platform}
            onChange={(v) => set({ platform: v || undefined })}
            options={PLATFORMS.map((p) => ({ value: p, label: PLATFORM_TITLES[p] }))}
            dataFilter="platform"
          />
          <FilterSelect
            minWidth={160}
            label={translate('kadr.calendar.filters.state')}
            value={filter.state}
            onChange={(v) => set({ state: v || undefined })}
            options={PUBLISH_STATES.map((st) => ({ value: st, label: translate(`kadr.publishing.states.${st}`) }))}
          />
        </Stack>
      )}
      <Typography variant="body2" sx={{ mb: 1 }} data-zone={zone}>
        {translate('kadr.slots.times_in_zone', { zone: zoneLabel(zone, openedAt, locale) })}
      </Typography>
      {truncated && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {translate('kadr.calendar.truncated', { count: CALENDAR_POSTS_MAX })}
        </Alert>
      )}
      <OverDaysMarker
        accountId={filter.accountId}
        boxRef={boxRef}
        overRef={overRef}
        rangeRef={rangeRef}
        title={overTitle}
      />
      {drawCalendar && (
        <PostsCalendar
          small={small}
          locale={locale}
          buttonText={buttonText}
          hints={hints}
          events={events}
          handlers={handlers}
          calendarRef={calendarRef}
          zone={zone}
        />
      )}
      <DayPostsPopover open={openDay} filter={filter} zone={zone} colorOf={colorOf} onClose={() => setOpenDay(null)} />
    </Box>
  );
};

/** One of the calendar's filters: a select whose first item, "all", clears it. */
function FilterSelect({
  label,
  value,
  onChange,
  options,
  minWidth,
  dataFilter,
}: {
  label: string;
  value: string | number | undefined;
  onChange: (value: string) => void;
  options: { value: string | number; label: string }[];
  minWidth: number;
  dataFilter?: string;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      fullWidth={false}
      size="small"
      sx={{ minWidth }}
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value)}
      slotProps={dataFilter ? { htmlInput: { 'data-filter': dataFilter } } : undefined}
    >
      <MenuItem value="">{translate('kadr.calendar.all')}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * FullCalendar's own colours (its CSS variables) from the theme, so the grid reads in the dark theme too (issue
 * 22): its lines, the sticky header's and the popover's backgrounds, today's shade, its buttons.
 */
const calendarColors = (theme: Theme) => {
  const dark = theme.palette.mode === 'dark';
  return {
    '--fc-border-color': theme.palette.divider,
    '--fc-page-bg-color': theme.palette.background.default,
    '--fc-neutral-bg-color': theme.palette.action.hover,
    '--fc-list-event-hover-bg-color': theme.palette.action.hover,
    ...(dark && {
      '--fc-today-bg-color': alpha(theme.palette.primary.main, 0.14),
      '--fc-neutral-text-color': theme.palette.text.secondary,
      '--fc-button-bg-color': theme.palette.grey[800],
      '--fc-button-border-color': theme.palette.grey[700],
      '--fc-button-hover-bg-color': theme.palette.grey[700],
      '--fc-button-hover-border-color': theme.palette.grey[600],
      '--fc-button-active-bg-color': theme.palette.grey[600],
      '--fc-button-active-border-color': theme.palette.grey[500],
    }),
  };
};
