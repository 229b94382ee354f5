import { useState } from 'react';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Alert, Box, IconButton, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { AiSessionDetail } from '../contract/ai';
import { StatusBadge } from '../common/StatusBadge';
import { useStoredMessage } from '../common/useStoredMessage';
import { ActiveMark } from './ActiveMark';
import { EmailText } from '../common/EmailText';
import { ErrorDetail } from '../common/ErrorDetail';
import { ProfileName } from '../accounts/ProfileName';

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Stack direction="row" spacing={1} alignItems="center" sx={{ minHeight: 32 }}>
    <Typography variant="body2" color="text.secondary" sx={{ minWidth: 130, flexShrink: 0 }}>
      {label}
    </Typography>
    <Box sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
  </Stack>
);

/** The provider credential, masked until the reveal button is pressed. */
const Secret = ({ value, label }: { value: string; label: string }) => {
  const translate = useTranslate();
  const [shown, setShown] = useState(false);
  if (!value) return <Typography variant="body2">—</Typography>;
  return (
    <Stack direction="row" alignItems="center" spacing={0.5}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace' }} data-testid="ai-password">
        {shown ? value : '•'.repeat(Math.min(12, value.length))}
      </Typography>
      <IconButton
        size="small"
        aria-label={translate(shown ? 'kadr.ai.hide_secret' : 'kadr.ai.show_secret', { field: label })}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? <VisibilityOffIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
      </IconButton>
    </Stack>
  );
};

/** SPEC §2 session detail: proxy, email, the tab's credential, the error text, the active mark and the status. */
export const SessionInfo = ({ session }: { session: AiSessionDetail }) => {
  const translate = useTranslate();
  const storedMessage = useStoredMessage();
  const f = (k: string) => translate(`kadr.ai.fields.${k}`);
  const secretLabel = f(session.provider === 'deepseek' ? 'password_deepseek' : 'password_gpt');
  return (
    <Stack spacing={0.5} data-testid="ai-session-info">
      <Row label={f('email')}>
        <Typography variant="body2">
          <EmailText email={session.email} />
        </Typography>
      </Row>
      <Row label={f('proxy')}>
        <Typography variant="body2">{session.proxy || '—'}</Typography>
      </Row>
      <Row label={secretLabel}>
        <Secret
          value={session.provider === 'deepseek' ? session.passwordDeepSeek : session.password}
          label={secretLabel}
        />
      </Row>
      <Row label={f('active')}>
        <ActiveMark active={session.isActive} />
      </Row>
      <Row label={f('status')}>
        <StatusBadge kind="ai" status={session.status} />
      </Row>
      {session.account && (
        <Row label={f('account')}>
          <Link component={RouterLink} to={`/accounts/${session.account.id}`} variant="body2" sx={{ minWidth: 0 }}>
            <ProfileName profile={session.account} maxWidth="100%" />
          </Link>
        </Row>
      )}
      {session.errorText && (
        <Alert
          severity="error"
          data-testid="ai-error-text"
          sx={{ overflowWrap: 'anywhere', minWidth: 0, '& .MuiAlert-message': { minWidth: 0 } }}
        >
          <div>{storedMessage(session.errorText)}</div>
          <ErrorDetail detail={session.errorDetail} label="provider" />
        </Alert>
      )}
    </Stack>
  );
};
