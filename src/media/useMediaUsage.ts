import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';

/** The media usage figures through the dataProvider: the caller's own figure, or every user's for an admin. */
export function useMediaUsage() {
  const dataProvider = useDataProvider<KadrDataProvider>();
  return useQuery({
    queryKey: ['mediaUsage'],
    queryFn: ({ signal }) => dataProvider.mediaUsage(signal),
  });
}
