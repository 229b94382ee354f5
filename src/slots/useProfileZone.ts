import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';
import { operatorZone } from './operatorZone';

/** A profile's time zone and slots (cached per profile), read from the slots API. */
export const useProfileSlots = (accountId: number | null | undefined) => {
  const dataProvider = useDataProvider<KadrDataProvider>();
  return useQuery({
    queryKey: ['slots', accountId],
    queryFn: ({ signal }) => dataProvider.profileSlots(accountId!, signal),
    enabled: !!accountId,
    staleTime: 60_000,
  });
};

/** The zone a profile's dates are shown in: its own, else (no profile yet, or not read yet) the operator's. */
export const useProfileZone = (accountId: number | null | undefined): string => {
  const { data } = useProfileSlots(accountId);
  return data?.timeZone ?? operatorZone();
};
