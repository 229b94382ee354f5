import { useState } from 'react';
import { Box, Card, CircularProgress, Grid } from '@mui/material';
import { ListBase, Title, useListContext, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import type { AiVideo } from '../contract/ai';
import { Pagination } from '../common/Pagination';
import { AiVideoCard } from './AiVideoCard';
import { VideoPlayDialog } from './VideoPlayDialog';
import { videoRefresh } from './videoRules';
import { EmptyList } from '../common/EmptyList';

const Cards = () => {
  const { data, isPending } = useListContext<AiVideo>();
  const [playing, setPlaying] = useState<number | null>(null);
  if (isPending) return <CircularProgress sx={{ m: 2 }} />;
  // The same empty state as the other lists: on a card, saying where AI videos come from.
  if (!data?.length)
    return (
      <Card>
        <EmptyList list="ai_videos" />
      </Card>
    );
  return (
    <>
      <Grid container spacing={2} data-testid="ai-videos">
        {data.map((v) => (
          // Cards wide enough for their three buttons on one line (a third of a laptop's page is not).
          <Grid key={v.id} size={{ xs: 12, md: 6, xl: 4 }}>
            <AiVideoCard video={v} onPlay={() => setPlaying(v.id)} />
          </Grid>
        ))}
      </Grid>
      {/* The modal reads the row from the list, so it follows the list's refreshes. */}
      <VideoPlayDialog video={data.find((v) => v.id === playing) ?? null} onClose={() => setPlaying(null)} />
    </>
  );
};

/** /ai/video (SPEC §2 AI): the AI videos as cards, paginated; refreshes itself while one is generating. */
export const AiVideoList = () => {
  const translate = useTranslate();
  return (
    <ListBase
      resource="ai/info/video"
      perPage={PAGE_SIZE}
      disableSyncWithLocation={false}
      storeKey={false}
      queryOptions={{ refetchInterval: (q) => videoRefresh((q.state.data as { data?: AiVideo[] })?.data) }}
    >
      <Title title={translate('kadr.ai.videos_title')} />
      <Box sx={{ mt: 2 }}>
        <Cards />
        <Pagination />
      </Box>
    </ListBase>
  );
};
