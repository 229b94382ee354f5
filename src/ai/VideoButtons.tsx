import { useState } from 'react';
import { Box, Button, Stack, Tooltip, Typography } from '@mui/material';
import PublishIcon from '@mui/icons-material/Publish';
import ReplayIcon from '@mui/icons-material/Replay';
import BlockIcon from '@mui/icons-material/Block';
import { Confirm, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { aiPublishPath } from '../publications/paths';
import type { AiVideo } from '../contract/ai';
import { useVideoActions } from './useVideoActions';
import { videoActions } from './videoRules';

/**
 * Publish, Recreate and Reject (the last after a confirmation), each only in a state that allows it. Publish
 * opens the publish form prefilled with the video's title, description, tags and its session's profile, where
 * the operator edits and chooses before anything is posted.
 */
export const VideoButtons = ({ video, onDone }: { video: AiVideo; onDone?: () => void }) => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { busy, recreate, reject } = useVideoActions(video);
  const can = videoActions(video);
  const [confirm, setConfirm] = useState(false);
  const then = (fn: () => Promise<void>) => async () => {
    await fn();
    onDone?.();
  };
  // Why Publish is greyed out, said under the buttons (and on hover): only a finished video with a file goes out.
  const blocked = can.publish ? null : translate(`kadr.ai.publish_blocked.${video.status}`);
  return (
    <Stack spacing={0.5} sx={{ minWidth: 0 }}>
      {/* On a phone a button that wraps fills its line with the others: rows of buttons, not one left over. */}
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ '& > *': { flexGrow: { xs: 1, sm: 0 } } }}>
        <Tooltip title={blocked ?? ''}>
          <Box component="span" sx={{ display: 'flex' }}>
            <Button
              sx={{ flex: 1 }}
              size="small"
              variant="contained"
              startIcon={<PublishIcon />}
              disabled={!can.publish || !!busy}
              aria-describedby={blocked ? `ai-video-${video.id}-blocked` : undefined}
              onClick={() => {
                onDone?.();
                navigate(aiPublishPath(video.id));
              }}
            >
              {translate('kadr.ai.publish')}
            </Button>
          </Box>
        </Tooltip>
        <Button
          size="small"
          variant="outlined"
          startIcon={<ReplayIcon />}
          disabled={!can.recreate || !!busy}
          onClick={then(recreate)}
        >
          {translate('kadr.ai.recreate')}
        </Button>
        <Button
          size="small"
          color="error"
          startIcon={<BlockIcon />}
          disabled={!can.reject || !!busy}
          onClick={() => setConfirm(true)}
        >
          {translate('kadr.ai.reject')}
        </Button>
        <Confirm
          isOpen={confirm}
          title="kadr.ai.reject_title"
          titleTranslateOptions={{ id: video.id }}
          content="kadr.ai.reject_content"
          confirm="kadr.ai.reject"
          onConfirm={async () => {
            setConfirm(false);
            await then(reject)();
          }}
          onClose={() => setConfirm(false)}
        />
      </Stack>
      {blocked && (
        <Typography variant="caption" color="text.secondary" id={`ai-video-${video.id}-blocked`}>
          {blocked}
        </Typography>
      )}
    </Stack>
  );
};
