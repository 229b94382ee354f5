import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';

/** The queue's counts per kind and state (one query for the summary panel and the kind filter; refresh reloads it). */
export function useJobSummary() {
  const dataProvider = useDataProvider<KadrDataProvider>();
  return useQuery({ queryKey: ['jobs', 'summary'], queryFn: ({ signal }) => dataProvider.jobSummary(signal) }).data;
}
