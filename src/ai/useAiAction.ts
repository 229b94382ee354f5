import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { AiAction, AiActionBody, AiActionReply } from '../contract/ai';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';

/**
 * One AI service action (SPEC §7: each answers success and message): `busy` names the button whose action runs;
 * a reply with success=false or a failed call shows the message as an error toast; success shows
 * `successMessage` (else the reply's message). Resolves the reply when it succeeded, undefined otherwise.
 */
export function useAiAction() {
  const notify = useNotify();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async <A extends AiAction>(
    name: string,
    action: A,
    body: AiActionBody<A>,
    successMessage?: string,
  ): Promise<AiActionReply<A> | undefined> => {
    setBusy(name);
    try {
      const reply = await dataProvider.aiAction(action, body);
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
