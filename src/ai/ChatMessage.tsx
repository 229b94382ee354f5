import { memo, useMemo } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AiMessage } from '../contract/ai';
import { useFormatUtc } from '../common/useFormatUtc';
import { safeHtml } from './sanitize';

const bubble = {
  px: 1.5,
  py: 1,
  borderRadius: 2,
  maxWidth: '85%',
  overflowWrap: 'anywhere',
  '& p': { my: 0.5 },
  '& pre': { overflowX: 'auto', bgcolor: 'grey.900', color: 'grey.100', p: 1, borderRadius: 1 },
  '& img': { maxWidth: '100%' },
} as const;

/**
 * One turn: what the operator wrote (right) and the model's answer (left), both sanitised HTML. Off-screen
 * turns skip layout and paint (`content-visibility: auto`), so a long history scrolls smoothly.
 */
export const ChatMessage = memo(function ChatMessage({ message }: { message: AiMessage }) {
  const formatDate = useFormatUtc();
  const translate = useTranslate();
  const mine = useMemo(() => safeHtml(message.message_my), [message.message_my]);
  const answer = useMemo(() => safeHtml(message.message_ai), [message.message_ai]);
  return (
    <Box
      data-testid="ai-turn"
      data-id={message.id}
      sx={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 140px', py: 0.5 }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Box
          sx={{ ...bubble, bgcolor: 'primary.main', color: 'primary.contrastText' }}
          aria-label={translate('kadr.ai.you_wrote')}
          dangerouslySetInnerHTML={{ __html: mine }}
        />
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-start', mt: 0.5 }}>
        {answer ? (
          <Box
            sx={{
              ...bubble,
              bgcolor: (t) => t.palette.grey[t.palette.mode === 'dark' ? 800 : 100],
              color: 'text.primary',
            }}
            aria-label={translate('kadr.ai.answer')}
            data-testid="ai-answer"
            dangerouslySetInnerHTML={{ __html: answer }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ ...bubble, fontStyle: 'italic' }}>
            {translate('kadr.ai.no_answer')}
          </Typography>
        )}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'center' }}>
        {formatDate(message.createdAt)}
      </Typography>
    </Box>
  );
});
