import { useEffect, useState, type RefObject } from 'react';
import { useOverDays } from './useOverDays';

type Range = { start: string; end: string };

/** A day cell marked over budget (a class, `data-over` and a title) or not. */
export const markOver = (el: HTMLElement, over: boolean, title: string) => {
  el.classList.toggle('kadr-over', over);
  if (over) el.dataset.over = 'true';
  else delete el.dataset.over;
  el.title = over ? title : '';
};

/**
 * Marks the calendar's over-budget days (the capacity view) on its cells, outside the calendar's own renders:
 * it holds the visible range and the capacity answer itself, so neither re-renders the calendar (a re-render
 * mid-drag drops the drag).
 */
export const OverDaysMarker = ({
  accountId,
  boxRef,
  overRef,
  rangeRef,
  title,
}: {
  accountId?: number | undefined;
  boxRef: RefObject<HTMLDivElement | null>;
  overRef: RefObject<Set<string>>;
  rangeRef: RefObject<(r: Range) => void>;
  title: string;
}) => {
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    rangeRef.current = (r) => setRange((x) => (x?.start === r.start && x.end === r.end ? x : r));
  }, [rangeRef]);
  const overDays = useOverDays(range, accountId);
  useEffect(() => {
    overRef.current = overDays;
    for (const el of boxRef.current?.querySelectorAll<HTMLElement>('td.fc-day[data-date]') ?? [])
      markOver(el, overDays.has(el.dataset.date!), title);
  }, [overDays, boxRef, overRef, title]);
  return null;
};
