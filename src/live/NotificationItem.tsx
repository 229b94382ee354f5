import { Box, IconButton, ListItemButton, Tooltip, Typography } from '@mui/material';
import DoneIcon from '@mui/icons-material/Done';
import { useTranslate } from 'react-admin';
import type { Notification } from '../contract/live';
import { useFormatUtc } from '../common/useFormatUtc';
import { useStoredMessage } from '../common/useStoredMessage';

const PLATFORM: Record<string, string> = { youtube: 'YouTube', tiktok: 'TikTok', instagram: 'Instagram' };

/** One notification: its sentence, the reason when it failed, when; unread ones bold with a mark-read tick. */
export const NotificationItem = ({
  n,
  onOpen,
  onRead,
}: {
  n: Notification;
  onOpen: (n: Notification) => void;
  onRead: (n: Notification) => void;
}) => {
  const translate = useTranslate();
  const formatDate = useFormatUtc();
  const stored = useStoredMessage();
  const params = { ...n.params, platform: PLATFORM[String(n.params.platform)] ?? n.params.platform ?? '' };
  const reason = typeof n.params.error === 'string' && n.params.error ? stored(n.params.error) : '';
  const unread = !n.readAt;
  return (
    <ListItemButton
      onClick={() => onOpen(n)}
      data-notification={n.kind}
      data-unread={unread ? 'true' : 'false'}
      sx={{ alignItems: 'flex-start', gap: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}
    >
      <Box
        aria-hidden
        sx={{
          mt: 0.9,
          width: 8,
          height: 8,
          borderRadius: '50%',
          flex: 'none',
          bgcolor: unread ? 'primary.main' : 'transparent',
        }}
      />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" fontWeight={unread ? 600 : 400}>
          {translate(`kadr.live.notice.${n.kind}`, params)}
        </Typography>
        {reason && (
          <Typography variant="caption" color="error" component="div" noWrap title={reason}>
            {reason}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary">
          {formatDate(n.createdAt)}
        </Typography>
      </Box>
      {unread && (
        <Tooltip title={translate('kadr.live.mark_read')}>
          <IconButton
            size="small"
            aria-label={translate('kadr.live.mark_read')}
            onClick={(e) => {
              e.stopPropagation();
              onRead(n);
            }}
          >
            <DoneIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </ListItemButton>
  );
};
