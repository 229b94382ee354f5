import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';

/**
 * The days of the visible range over some platform's budget (issue 21 item 3, the capacity view): keys
 * 'YYYY-MM-DD' in each profile's zone (with a profile chosen, the calendar's own zone). Asked for as those days
 * only (API.slots.overDays), not the capacity view's whole answer (~300 KB for an admin's month, parsed on
 * the main thread while the month is drawn); a cold month view's first ask was sent early (monthPrefetch.ts).
 */
export const useOverDays = (range: { start: string; end: string } | null, accountId?: number): Set<string> => {
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['slots', 'over-days', range, accountId],
    queryFn: ({ signal }) => dataProvider.overDays({ ...range!, accountId }, signal),
    enabled: range !== null,
  });
  return useMemo(() => new Set(data?.days ?? []), [data]);
};
