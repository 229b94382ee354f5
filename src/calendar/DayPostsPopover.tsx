import { useEffect, useState } from 'react';
import { Box, ButtonBase, CircularProgress, Popover, Typography } from '@mui/material';
import { Draggable } from '@fullcalendar/interaction';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { isMovable, type CalendarDay, type CalendarFilter, type CalendarPost } from '../contract/calendar';
import { wallOf } from '../contract/time-zones';
import type { KadrDataProvider } from '../providers/dataProvider';
import { detailPath } from '../publications/paths';
import { STATE_COLORS } from '../publications/stateColors';
import { postLine, type PaletteOf } from './calendarEvents';

/** A crowded day opened from the month view: the day, the month's range it was counted in, the "+N more" link. */
export type OpenDay = { day: CalendarDay; range: { start: string; end: string }; anchor: HTMLElement };

/**
 * The full list of one crowded day of the month view (its "+N more"): the month's answer carries only each day's
 * first posts, so the day's posts are asked for when it opens (the calendar posts answer with the day's
 * drawnStart/drawnEnd, the same filters), in the order the calendar draws them. A post opens its publication; one
 * that has not started going out can be dragged from the list onto a day of the month (or an hour of the week),
 * which moves it as a drag in the grid does (the calendar's `drop`, CalendarPage). While a post is dragged the
 * list lets the pointer through to the calendar under it (FullCalendar takes a drop only where the calendar is
 * the element under the pointer) and fades.
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
  const [paper, setPaper] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!paper) return;
    const draggable = new Draggable(paper, { itemSelector: '[data-movable]', eventData: { create: false } });
    // Set on the elements at once, not through a render: the drop is judged at the pointer's next moves.
    const root = paper.closest<HTMLElement>('.MuiPopover-root') ?? paper;
    const through = (on: boolean) => {
      root.style.pointerEvents = on ? 'none' : '';
      paper.style.opacity = on ? '0.3' : '';
    };
    draggable.dragging.emitter.on('dragstart', () => through(true));
    draggable.dragging.emitter.on('dragend', () => through(false));
    return () => draggable.destroy();
  }, [paper]);
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
      slotProps={{
        paper: { ref: setPaper, 'data-day-posts': open?.day.day, sx: { maxHeight: 420, minWidth: 280 } } as object,
      }}
    >
      {open && (
        <Box sx={{ p: 1 }}>
          <Typography variant="subtitle2" sx={{ px: 1, pb: 0.5 }}>
            {translate('kadr.calendar.day_posts', { smart_count: open.day.count })}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 1, pb: 0.5 }}>
            {translate('kadr.calendar.drag_hint')}
          </Typography>
          {!data && <CircularProgress size={24} sx={{ m: 1 }} />}
          {posts.map((p) => (
            <ButtonBase
              key={p.id}
              data-post-id={p.id}
              data-state={p.state}
              // Only a post that has not started going out can be dragged (the server checks again).
              data-movable={isMovable(p.state) ? 'true' : undefined}
              data-due={p.dueAt}
              title={`${p.profile} · ${p.title}`}
              onClick={() => void navigate(detailPath(String(p.publicationId)))}
              sx={{
                display: 'flex',
                justifyContent: 'flex-start',
                gap: 1,
                width: '100%',
                px: 1,
                py: 0.25,
                ...(isMovable(p.state) ? { cursor: 'grab' } : {}),
              }}
            >
              <Box
                component="span"
                sx={{ width: 8, height: 8, borderRadius: '50%', flex: 'none', bgcolor: colorOf(STATE_COLORS[p.state]) }}
              />
              <Typography variant="body2" component="span" sx={{ flex: 'none' }}>
                {timeOf(p)}
              </Typography>
              <Typography variant="body2" component="span" noWrap>
                {postLine(p)}
              </Typography>
            </ButtonBase>
          ))}
        </Box>
      )}
    </Popover>
  );
};
