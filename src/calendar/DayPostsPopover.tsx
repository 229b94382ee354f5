import { Box, ButtonBase, CircularProgress, Popover, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { CalendarDay, CalendarFilter, CalendarPost } from '../contract/calendar';
import { PLATFORM_TITLES } from '../contract/platforms';
import { wallOf } from '../contract/time-zones';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailPath } from '../publications/paths';
import { STATE_COLORS } from '../publications/stateColors';
import type { PaletteOf } from './calendarEvents';

/** A crowded day opened from the month view: the day, the month's range it was counted in, the "+N more" link. */
export type OpenDay = { day: CalendarDay; range: { start: string; end: string }; anchor: HTMLElement };

/**
 * The full list of one crowded day of the month view (its "+N more"): the month's answer carries only each day's
 * first posts, so the day's posts are asked for when it opens (the calendar posts answer with the day's
 * drawnStart/drawnEnd, the same filters), in the order the calendar draws them. A post opens its publication.
 */
export const DayPostsPopover = ({
  open,
  filter,
  zone,
  colorOf,
  onClose,
}: {
  open: OpenDay | null;
  filter: CalendarFilter;
  zone: string;
  colorOf: PaletteOf;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['calendar', 'day', open?.day.start, open?.day.end, open?.range, filter],
    queryFn: ({ signal }) =>
      dataProvider.calendarPosts(
        { ...filter, ...open!.range, drawnStart: open!.day.start, drawnEnd: open!.day.end },
        signal,
      ),
    enabled: open !== null,
  });
  const at = (p: CalendarPost) => p.publishedAt ?? p.dueAt;
  const timeOf = (p: CalendarPost) => {
    const w = wallOf(zone, at(p));
    return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
  };
  const posts = [...(data?.data ?? [])].sort((a, b) => at(a).localeCompare(at(b)) || a.id - b.id);
  return (
    <Popover
      open={open !== null}
      anchorEl={open?.anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{ paper: { 'data-day-posts': open?.day.day, sx: { maxHeight: 420, minWidth: 280 } } as object }}
    >
      {open && (
        <Box sx={{ p: 1 }}>
          <Typography variant="subtitle2" sx={{ px: 1, pb: 0.5 }}>
            {translate('kadr.calendar.day_posts', { smart_count: open.day.count })}
          </Typography>
          {!data && <CircularProgress size={24} sx={{ m: 1 }} />}
          {posts.map((p) => (
            <ButtonBase
              key={p.id}
              data-post-id={p.id}
              data-state={p.state}
              title={`${p.profile} · ${p.title}`}
              onClick={() => void navigate(detailPath(String(p.publicationId)))}
              sx={{ display: 'flex', justifyContent: 'flex-start', gap: 1, width: '100%', px: 1, py: 0.25 }}
            >
              <Box
                component="span"
                sx={{ width: 8, height: 8, borderRadius: '50%', flex: 'none', bgcolor: colorOf(STATE_COLORS[p.state]) }}
              />
              <Typography variant="body2" component="span" sx={{ flex: 'none' }}>
                {timeOf(p)}
              </Typography>
              <Typography variant="body2" component="span" noWrap>
                {`${p.repeatOf > 0 ? '↻ ' : ''}${PLATFORM_TITLES[p.platform]} · ${p.title}`}
              </Typography>
            </ButtonBase>
          ))}
        </Box>
      )}
    </Popover>
  );
};
