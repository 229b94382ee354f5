import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge, IconButton } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslate } from 'react-admin';
import type { Notification } from '../contract/live';
import { useNotifications } from '../live/useNotifications';
import { loadLaterMessages } from '../providers/i18nProvider';

// A notification's stored message may name any section's text (a platform's error): the screens' part of the
// messages comes with the panel's code.
const NotificationPanel = lazy(() =>
  Promise.all([import('./NotificationPanel'), loadLaterMessages()]).then(([panel]) => panel),
);

/**
 * The bell: the unread count on it; a panel 'Сповіщення' with the newest notifications ('Немає повідомлень'
 * when there are none, NotificationPanel.tsx) that closes on an outside click. A notification opens what it is about and turns read.
 */
export const NotificationBell = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { page, markRead, markAllRead } = useNotifications();
  const title = translate('kadr.layout.notifications');
  const unread = page?.unread ?? 0;
  const panel = useRef<HTMLDivElement>(null);
  // Closes on a press anywhere outside the bell and its panel. Listened to in the capture phase, so neither a
  // handler that stops the event nor a re-render of the panel at that moment can swallow it.
  useEffect(() => {
    if (!anchor) return;
    const onPress = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!anchor.contains(target) && !panel.current?.contains(target)) setAnchor(null);
    };
    document.addEventListener('pointerdown', onPress, true);
    return () => document.removeEventListener('pointerdown', onPress, true);
  }, [anchor]);
  const open = (n: Notification) => {
    if (!n.readAt) void markRead(n.id).catch(() => undefined);
    setAnchor(null);
    if (n.link) navigate(n.link);
  };
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={unread ? `${title}: ${translate('kadr.live.unread', { count: unread })}` : title}
        aria-expanded={!!anchor}
        onClick={(e) => setAnchor(anchor ? null : e.currentTarget)}
      >
        <Badge badgeContent={unread} color="error" max={99} data-unread-count={unread}>
          <NotificationsIcon />
        </Badge>
      </IconButton>
      {anchor && (
        <Suspense fallback={null}>
          <NotificationPanel
            anchor={anchor}
            panel={panel}
            page={page}
            onOpen={open}
            onRead={(x) => void markRead(x.id).catch(() => undefined)}
            onReadAll={() => void markAllRead().catch(() => undefined)}
          />
        </Suspense>
      )}
    </>
  );
};
