import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';

/** The bell's newest page of notifications (10, newest first) and its unread count, refreshed by live events. */
export function useNotifications() {
  const qc = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const query = useQuery({
    queryKey: ['notifications', 'page', 1],
    queryFn: ({ signal }) => dataProvider.notifications(1, signal),
    // Live events refresh it at once; this is the fallback when the stream is down.
    refetchInterval: 60_000,
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ['notifications'] }), [qc]);
  const { mutateAsync: markRead } = useMutation({ mutationFn: dataProvider.readNotification, onSuccess: refresh });
  const { mutateAsync: markAllRead } = useMutation({
    mutationFn: () => dataProvider.readAllNotifications(),
    onSuccess: refresh,
  });
  return { page: query.data, markRead, markAllRead };
}
