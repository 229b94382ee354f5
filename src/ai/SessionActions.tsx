import StopIcon from '@mui/icons-material/Stop';
import CameraAltIcon from '@mui/icons-material/CameraAlt';
import { Button, CircularProgress, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AiSessionDetail } from '../contract/ai';
import { useAiAction } from './useAiAction';

/** Stop and Screenshot (SPEC §4: only while the session is active); 'Скриншот создан' after a screenshot. */
export const SessionActions = ({ session, onChange }: { session: AiSessionDetail; onChange: () => void }) => {
  const translate = useTranslate();
  const { busy, run } = useAiAction();
  if (!session.isActive) return null;
  const body = { email: session.email, sessionId: session.id }; // the id: an admin's email may name several
  const act = async (name: 'stop' | 'screenshot', message?: string) => {
    if (await run(name, name, body, message)) onChange();
  };
  const spin = (name: string) => (busy === name ? <CircularProgress size={16} /> : undefined);
  return (
    <Stack direction="row" spacing={1}>
      <Button
        variant="outlined"
        color="warning"
        startIcon={spin('stop') ?? <StopIcon />}
        disabled={!!busy}
        onClick={() => act('stop')}
      >
        {translate('kadr.ai.stop')}
      </Button>
      <Button
        variant="outlined"
        startIcon={spin('screenshot') ?? <CameraAltIcon />}
        disabled={!!busy}
        onClick={() => act('screenshot', 'kadr.ai.screenshot_created')}
      >
        {translate('kadr.ai.screenshot')}
      </Button>
    </Stack>
  );
};
