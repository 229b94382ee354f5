import { useState } from 'react';
import SendIcon from '@mui/icons-material/Send';
import { Button, CircularProgress, Stack } from '@mui/material';
import { BooleanInput, Form, TextInput, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { AIM, type AiMessage, type AiProvider } from '../contract/ai';
import { errorMessages } from '../common/errorMessages';
import type { KadrDataProvider } from '../providers/dataProvider';
import { typeAction } from './chat';
import type { PendingTurn } from './ChatHistory';
type Props = {
  email: string;
  /** The session's id: for an admin an email alone may name several users' sessions. */
  sessionId: number;
  chat: AiProvider;
  onPending: (p: PendingTurn | null) => void;
  onTurns: (turns: AiMessage[]) => void;
};

const required = (v: unknown) => (typeof v === 'string' && v.trim() ? undefined : AIM.messageRequired);

/**
 * The message form (SPEC §2, §5): the text ('Сообщение обов'язковий' when empty) and the Sora toggle. With the
 * toggle on, the text is the idea of a video: the answer is an AI video on /ai/video, not a chat reply. Sends
 * to /type or /type-deepseek; while it runs the turn shows with a spinner, then the answered turn is appended.
 */
export const MessageForm = ({ email, sessionId, chat, onPending, onTurns }: Props) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [sending, setSending] = useState(false);
  const [generation, setGeneration] = useState(0); // a new form (cleared) after each sent message
  const submit = async (values: Record<string, unknown>) => {
    const text = String(values.text ?? '').trim();
    const isSora = !!values.isSora;
    setSending(true);
    onPending({ text, isSora });
    try {
      const reply = await dataProvider.aiAction(typeAction(chat), { email, sessionId, text, isSora });
      if (!reply.success) {
        notify(reply.message || 'kadr.notifications.failure', { type: 'error' });
        return;
      }
      if (reply.messages.length) onTurns(reply.messages);
      if (isSora) notify(reply.message || 'kadr.ai.video_requested', { type: 'success' });
      setGeneration((g) => g + 1);
    } catch (e) {
      for (const m of errorMessages(e, translate('kadr.notifications.failure'))) notify(m, { type: 'error' });
    } finally {
      onPending(null);
      setSending(false);
    }
  };
  return (
    <Form key={generation} onSubmit={submit} defaultValues={{ text: '', isSora: false }} noValidate>
      <Stack spacing={0} data-testid="ai-message-form">
        <TextInput
          source="text"
          label="kadr.ai.fields.text"
          multiline
          minRows={2}
          maxRows={8}
          validate={required}
          disabled={sending}
          helperText={false}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} alignItems={{ sm: 'center' }} spacing={1}>
          <BooleanInput
            source="isSora"
            label="kadr.ai.fields.sora"
            helperText="kadr.ai.sora_help"
            disabled={sending}
            sx={{ flex: 1, mb: 0 }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={sending}
            startIcon={sending ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
            sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
          >
            {translate(sending ? 'kadr.ai.sending' : 'kadr.ai.send')}
          </Button>
        </Stack>
      </Stack>
    </Form>
  );
};
