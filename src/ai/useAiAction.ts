import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import type { AiReply } from '../contract/ai';
import { aiPost } from '../providers/aiClient';
import { errorMessages } from '../providers/httpClient';

/**
 * One AI service action (SPEC §7: each answers success and message): `busy` while it runs; a reply with
 * success=false or a failed call shows the message as an error toast; success shows `successMessage` (else the
 * reply's message). Resolves the reply when it succeeded, undefined otherwise.
 */
export function useAiAction() {
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async <T extends AiReply>(
    name: string,
    path: string,
    body: unknown,
    successMessage?: string,
  ): Promise<T | undefined> => {
    setBusy(name);
    try {
      const reply = await aiPost<T>(path, body);
      if (!reply.success) {
        notify(reply.message || 'kadr.notifications.failure', { type: 'error' });
        return undefined;
      }
      notify(successMessage ?? (reply.message || 'kadr.notifications.success'), { type: 'success' });
      return reply;
    } catch (e) {
      for (const m of errorMessages(e, translate('kadr.notifications.failure'))) notify(m, { type: 'error' });
      return undefined;
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
