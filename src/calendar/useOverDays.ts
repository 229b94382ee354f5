import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';

/**
 * The days of the visible range over some platform's budget (issue 21 item 3, the capacity view): keys
 * 'YYYY-MM-DD' in each profile's zone (with a profile chosen, the calendar's own zone).
 */
export const useOverDays = (range: { start: string; end: string } | null, accountId?: number): Set<string> => {
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data } = useQuery({
    queryKey: ['slots', 'capacity', range, accountId],
    queryFn: ({ signal }) => dataProvider.capacity({ ...range!, accountId }, signal),
    enabled: range !== null,
  });
  return useMemo(() => new Set((data?.data ?? []).filter((d) => d.over).map((d) => d.day)), [data]);
};
