import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PostCounter as Counter } from '../contract/platform-posts';

/** One live counter of a platform's limit ("87 / 100"), red when over. */
export const PostCounter = ({ counter, label }: { counter: Counter; label?: string }) => {
  const translate = useTranslate();
  const params = { used: counter.used, max: counter.max };
  return (
    <Typography
      variant="caption"
      data-counter={counter.field}
      data-over={counter.over ? 'true' : 'false'}
      color={counter.over ? 'error' : 'text.secondary'}
      sx={{ display: 'block', textAlign: 'right', mt: -0.5 }}
    >
      {translate(label ?? 'kadr.platform_posts.counter', params)}
    </Typography>
  );
};
