import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { RequestLive } from '../contract/live';
import type { CreateVideoRequest } from '../contract/videos';
import type { KadrDataProvider } from '../providers/dataProvider';
import { startLive, type LiveMessage } from '../providers/liveStream';

type ListData = { data: CreateVideoRequest[]; total?: number };

/** Patches a request's progress and status in every cached page of the request list (no refetch). */
function patchRequest(qc: QueryClient, r: RequestLive) {
  let found = false;
  qc.setQueriesData<ListData>({ queryKey: ['create-video', 'getList'] }, (old) => {
    if (!old?.data) return old;
    const i = old.data.findIndex((x) => x.id === r.id);
    if (i < 0) return old;
    found = true;
    const data = [...old.data];
    data[i] = {
      ...data[i]!,
      status: r.status as CreateVideoRequest['status'],
      progress: r.progress,
      done: r.done,
      error: r.error,
    };
    return { ...old, data };
  });
  // A request this page has not loaded yet (just created elsewhere): the list reads itself again.
  if (!found) void qc.invalidateQueries({ queryKey: ['create-video', 'getList'] });
  if (r.status === 'success' || r.status === 'error')
    void qc.invalidateQueries({ queryKey: ['create-video/request', r.idUpload] });
}

/** What each event changes on the open page. */
export function applyLive(qc: QueryClient, m: LiveMessage) {
  if (m.kind === 'request') patchRequest(qc, m.payload as RequestLive);
  else if (m.kind === 'publish') void qc.invalidateQueries({ queryKey: ['upload-video'] });
  // A proxy checked after a save: the profile list and the pickers read the profile's state again.
  else if (m.kind === 'profile') {
    void qc.invalidateQueries({ queryKey: ['accounts'] });
    void qc.invalidateQueries({ queryKey: ['accounts/search'] });
  } else if (m.kind === 'notification') void qc.invalidateQueries({ queryKey: ['notifications'] });
}

/**
 * The tab's live connection, mounted once inside the signed-in layout (so it stops on logout). Events patch
 * or refresh the affected queries at once; the lists' own periodic refresh stays as the fallback. After a
 * break, once the missed events are replayed, the open lists read themselves again.
 */
export const LiveUpdates = () => {
  const qc = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  useEffect(
    () =>
      startLive({
        ticket: async () => (await dataProvider.liveTicket()).ticket,
        onMessage: (m) => applyLive(qc, m),
        onOpen: (resumed) => {
          if (!resumed) return;
          for (const key of ['create-video', 'upload-video', 'notifications'])
            void qc.invalidateQueries({ queryKey: [key] });
        },
      }),
    [qc, dataProvider],
  );
  return null;
};
