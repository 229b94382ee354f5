import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPage } from '../contract/live';
import { httpClient } from '../providers/httpClient';

/** The bell's newest page of notifications (10, newest first) and its unread count, refreshed by live events. */
export function useNotifications() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: ['notifications', 'page', 1],
    queryFn: async ({ signal }) => (await httpClient('/api/notifications?page=1', { signal })).json as NotificationPage,
    // Live events refresh it at once; this is the fallback when the stream is down.
    refetchInterval: 60_000,
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ['notifications'] }), [qc]);
  const markRead = useCallback(
    async (id: number) => {
      await httpClient(`/api/notifications/${id}/read`, { method: 'POST' });
      await refresh();
    },
    [refresh],
  );
  const markAllRead = useCallback(async () => {
    await httpClient('/api/notifications/read', { method: 'POST' });
    await refresh();
  }, [refresh]);
  return { page: query.data, markRead, markAllRead };
}
