import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useDataProvider } from 'react-admin';
import type { AiMessage, AiProvider, AiSessionDetail } from '../contract/ai';
import type { KadrDataProvider } from '../providers/dataProvider';
import { mergeMessages } from './chat';

export const sessionKey = (id: string, chat: AiProvider) => ['ai/info', 'detail', id, chat];

/**
 * The session, the chat provider's whole history (one request) and the screenshots. `appendTurns` puts the turns
 * a send answered into the cached history without a reload.
 */
export function useAiSession(id: string, chat: AiProvider) {
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const query = useQuery({
    queryKey: sessionKey(id, chat),
    queryFn: ({ signal }) => dataProvider.aiSession(id, chat, signal),
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData, // the other tab's page stays while this one loads
  });
  const appendTurns = useCallback(
    (turns: AiMessage[]) =>
      queryClient.setQueryData<AiSessionDetail>(sessionKey(id, chat), (old) =>
        old ? { ...old, messages: mergeMessages(old.messages, turns) } : old,
      ),
    [queryClient, id, chat],
  );
  return { ...query, appendTurns };
}
