import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AiMessage } from '../contract/ai';
import { initialHidden, revealEarlier } from './chat';
import { ChatMessage } from './ChatMessage';

export type PendingTurn = { text: string; isSora: boolean };

/**
 * The chat history, newest at the bottom, scrolled to the bottom when it opens and when a turn is added. Only
 * the newest turns mount at first (see chat.ts); scrolling to the top, or the button there, mounts earlier ones
 * and keeps the reader's place. `pending` shows the turn being sent, with a spinner.
 */
export const ChatHistory = ({ messages, pending }: { messages: AiMessage[]; pending: PendingTurn | null }) => {
  const translate = useTranslate();
  const box = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState(() => initialHidden(messages.length));
  const keepFrom = useRef<number | null>(null); // scrollHeight before earlier turns were mounted
  const earlier = () => {
    if (!box.current || hidden === 0) return;
    keepFrom.current = box.current.scrollHeight;
    setHidden(revealEarlier);
  };

  // Earlier turns mounted above: keep what the reader was looking at in place.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || keepFrom.current == null) return;
    el.scrollTop += el.scrollHeight - keepFrom.current;
    keepFrom.current = null;
  }, [hidden]);
  // Opened, a turn added or being sent: to the bottom. Off-screen turns settle their real height only once
  // laid out (content-visibility), so the box keeps to the bottom while the reader has not scrolled away.
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
  }, [messages.length, pending]);
  useEffect(() => {
    const el = box.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const onScroll = () => {
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    };
    const ro = new ResizeObserver(() => {
      if (stick.current && keepFrom.current == null) el.scrollTop = el.scrollHeight;
    });
    ro.observe(inner);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, []);
  // Scrolled to the top: mount the next chunk.
  useEffect(() => {
    const el = top.current;
    if (!el || !hidden || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((e) => e[0]?.isIntersecting && earlier(), { root: box.current });
    io.observe(el);
    return () => io.disconnect();
  });

  const shown = messages.slice(hidden);
  return (
    <Box
      ref={box}
      data-testid="ai-chat"
      role="log"
      aria-label={translate('kadr.ai.history')}
      sx={{
        height: '55vh',
        minHeight: 280,
        overflowY: 'auto',
        px: 1,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
      }}
    >
      <div ref={content}>
        <div ref={top} />
        {hidden > 0 && (
          <Box sx={{ textAlign: 'center', py: 1 }}>
            <Button size="small" onClick={earlier}>
              {translate('kadr.ai.show_earlier', { count: hidden })}
            </Button>
          </Box>
        )}
        {!messages.length && !pending && (
          <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
            {translate('kadr.ai.no_messages')}
          </Typography>
        )}
        {shown.map((m) => (
          <ChatMessage key={m.id} message={m} />
        ))}
        {pending && (
          <Box sx={{ py: 0.5 }} data-testid="ai-pending">
            <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Box
                sx={{
                  px: 1.5,
                  py: 1,
                  borderRadius: 2,
                  bgcolor: 'primary.light',
                  color: 'primary.contrastText',
                  maxWidth: '85%',
                }}
              >
                {pending.text}
              </Box>
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, color: 'text.secondary' }}>
              <CircularProgress size={16} />
              <Typography variant="body2">
                {translate(pending.isSora ? 'kadr.ai.generating_video' : 'kadr.ai.waiting_answer')}
              </Typography>
            </Box>
          </Box>
        )}
      </div>
    </Box>
  );
};
