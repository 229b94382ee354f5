import { useState } from 'react';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { Box, Button, Card, CardContent, Grid, Stack, Tab, Tabs, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Title, useTranslate, type HttpError } from 'react-admin';
import { AI_PROVIDERS, type AiProvider } from '../contract/ai';
import { Loading } from '../layout/Loading';
import { RecordNotFound, isGone } from '../layout/RecordNotFound';
import { chatOf } from './chat';
import { ChatHistory, type PendingTurn } from './ChatHistory';
import { MessageForm } from './MessageForm';
import { ScreenshotGallery } from './ScreenshotGallery';
import { SessionActions } from './SessionActions';
import { SessionInfo } from './SessionInfo';
import { useAiSession } from './useAiSession';
import { AI_LIST } from './paths';

const TAB_LABELS: Record<AiProvider, string> = { gpt: 'GPT', deepseek: 'DeepSeek' };

/**
 * /ai/list/{id}?chat=gpt|deepseek (SPEC §2 AI): the session (proxy, email, credential, error, active, status),
 * Stop and Screenshot while active, the screenshots, the GPT/DeepSeek tabs (kept in ?chat=, gpt by default),
 * the tab's history and the message form. Another user's session, or one that does not exist: the not-found screen.
 */
export const AiSessionPage = () => {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const chat = chatOf(params.get('chat'));
  const { data, error, refetch, appendTurns } = useAiSession(id, chat);
  const [pending, setPending] = useState<PendingTurn | null>(null);
  if (isGone(error)) return <RecordNotFound back="/ai/list" />;
  if (error) return <Typography color="error">{(error as HttpError).message}</Typography>;
  if (!data) return <Loading />;
  const setChat = (next: AiProvider) => setParams(next === 'gpt' ? {} : { chat: next }, { replace: true });
  return (
    <Box sx={{ mt: 1 }}>
      <Title title={translate('kadr.ai.session_title', { id: data.id, email: data.email })} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card>
            <CardContent>
              <Stack spacing={2}>
                <Button
                  component={RouterLink}
                  to={AI_LIST}
                  startIcon={<ArrowBackIcon />}
                  sx={{ alignSelf: 'flex-start' }}
                >
                  {translate('kadr.ai.back_to_list')}
                </Button>
                <SessionInfo session={data} />
                <SessionActions session={data} onChange={() => refetch()} />
                <ScreenshotGallery shots={data.screenshots} />
              </Stack>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Card>
            <CardContent>
              <Tabs value={chat} onChange={(_, v: AiProvider) => setChat(v)} sx={{ mb: 1 }}>
                {AI_PROVIDERS.map((p) => (
                  <Tab key={p} value={p} label={TAB_LABELS[p]} />
                ))}
              </Tabs>
              <Stack spacing={1}>
                <ChatHistory key={data.provider} messages={data.messages} pending={pending} />
                <MessageForm
                  email={data.email}
                  sessionId={data.id}
                  chat={data.provider}
                  onPending={setPending}
                  onTurns={appendTurns}
                />
              </Stack>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Box>
  );
};
