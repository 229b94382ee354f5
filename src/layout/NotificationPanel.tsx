import type { RefObject } from 'react';
import { Box, Button, List, Paper, Popper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Notification } from '../contract/live';
import { NotificationItem } from '../live/NotificationItem';

type Props = {
  anchor: HTMLElement;
  panel: RefObject<HTMLDivElement | null>;
  page: { data: Notification[]; unread: number } | undefined;
  onOpen: (n: Notification) => void;
  onRead: (n: Notification) => void;
  onReadAll: () => void;
};

/**
 * The bell's panel 'Сповіщення': the newest notifications ('Немає повідомлень' when there are none). A chunk of its
 * own, loaded on the bell's first press: it brings MUI's Popper, which no screen needs before that.
 */
export default function NotificationPanel({ anchor, panel, page, onOpen, onRead, onReadAll }: Props) {
  const translate = useTranslate();
  const title = translate('kadr.layout.notifications');
  const unread = page?.unread ?? 0;
  return (
    <Popper open anchorEl={anchor} placement="bottom-end" sx={{ zIndex: 1300 }}>
      <Paper ref={panel} elevation={6} role="dialog" aria-label={title} sx={{ width: 360, mt: 1 }}>
        <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', display: 'flex', alignItems: 'center' }}>
          <Typography variant="subtitle1" fontWeight={600} sx={{ flex: 1 }}>
            {title}
          </Typography>
          {unread > 0 && (
            <Button size="small" onClick={onReadAll}>
              {translate('kadr.live.mark_all_read')}
            </Button>
          )}
        </Box>
        {page?.data.length ? (
          <List disablePadding sx={{ maxHeight: 420, overflowY: 'auto' }}>
            {page.data.map((n) => (
              <NotificationItem key={n.id} n={n} onOpen={onOpen} onRead={onRead} />
            ))}
          </List>
        ) : (
          <Box sx={{ p: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {translate('kadr.layout.no_notifications')}
            </Typography>
          </Box>
        )}
      </Paper>
    </Popper>
  );
}
