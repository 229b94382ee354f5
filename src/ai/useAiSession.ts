import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { AiMessage, AiProvider, AiSessionDetail } from '../contract/ai';
import { aiClient } from '../providers/aiClient';
import { mergeMessages } from './chat';

export const sessionKey = (id: string, chat: AiProvider) => ['ai/info', 'detail', id, chat];

/**
 * GET /api/ai/info/{id}?type=gpt|deepseek: the session, that provider's whole history (one request) and the
 * screenshots. `appendTurns` puts the turns a send answered into the cached history without a reload.
 */
export function useAiSession(id: string, chat: AiProvider) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: sessionKey(id, chat),
    queryFn: async ({ signal }) =>
      (await aiClient(`/api/ai/info/${encodeURIComponent(id)}?type=${chat}`, { signal })).json as AiSessionDetail,
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
