import { useState } from 'react';
import { Box, ClickAwayListener, IconButton, Paper, Popper, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslate } from 'react-admin';

/** The bell: a panel 'Сповіщення' with 'Немає повідомлень' that closes on an outside click. */
export const NotificationBell = () => {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const title = translate('kadr.layout.notifications');
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={title}
        aria-expanded={!!anchor}
        onClick={(e) => setAnchor(anchor ? null : e.currentTarget)}
      >
        <NotificationsIcon />
      </IconButton>
      <Popper open={!!anchor} anchorEl={anchor} placement="bottom-end" sx={{ zIndex: 1300 }}>
        <ClickAwayListener
          onClickAway={(e) => {
            if (!anchor?.contains(e.target as Node)) setAnchor(null);
          }}
        >
          <Paper elevation={6} role="dialog" aria-label={title} sx={{ width: 300, mt: 1 }}>
            <Box sx={{ p: 2, borderBottom: 1, borderColor: 'divider' }}>
              <Typography variant="subtitle1" fontWeight={600}>
                {title}
              </Typography>
            </Box>
            <Box sx={{ p: 2 }}>
              <Typography variant="body2" color="text.secondary">
                {translate('kadr.layout.no_notifications')}
              </Typography>
            </Box>
          </Paper>
        </ClickAwayListener>
      </Popper>
    </>
  );
};
