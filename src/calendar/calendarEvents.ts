import { isMovable, type CalendarPost } from '../contract/calendar';
import { PLATFORM_TITLES } from '../contract/platforms';
import { STATE_COLORS } from '../publications/stateColors';

/** A palette colour by its MUI name ('default' is grey). */
export type PaletteOf = (name: (typeof STATE_COLORS)[keyof typeof STATE_COLORS]) => string;

/**
 * One calendar entry per post: at its publish instant once published, else its due time; coloured by state;
 * only a post that has not started going out can be dragged.
 */
export const toEvent = (p: CalendarPost, colorOf: PaletteOf) => {
  const color = colorOf(STATE_COLORS[p.state]);
  return {
    id: String(p.id),
    title: `${PLATFORM_TITLES[p.platform]} · ${p.title}`,
    start: p.publishedAt ?? p.dueAt,
    allDay: false,
    editable: isMovable(p.state),
    backgroundColor: color,
    borderColor: color,
    classNames: [`kadr-post-${p.state}`],
    extendedProps: { post: p },
  };
};
