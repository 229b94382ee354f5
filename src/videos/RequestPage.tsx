import { Suspense } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { REQUEST_REFRESH_MS } from '../contract/videos';
import { StatusBadge } from '../common/StatusBadge';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';
import { Loading } from '../layout/Loading';
import { RecordNotFound, isGone } from '../layout/RecordNotFound';
import { VideoPlayer } from '../publications/VideoPlayer';
import { RequestOptions } from './RequestCells';
import { RenderFailureText } from './RenderFailureText';
import { RequestVariants } from '../analytics/index';

/**
 * /video/request-create/{id}: one create-video request, read-only: when it was made, the clip, what it asked
 * for, its status (refreshed while it renders) and its rendered videos with players; Publish when it is
 * finished. Another user's request, or none, is the 404 screen.
 */
export const RequestPage = () => {
  const formatDate = useFormatUtc();
  const { id = '' } = useParams();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data, error } = useQuery({
    queryKey: ['create-video', 'page', id],
    queryFn: ({ signal }) => dataProvider.renderRequest(id, signal),
    retry: false,
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' || q.state.data?.status === 'loading' ? REQUEST_REFRESH_MS : false,
  });
  if (error) return isGone(error) ? <RecordNotFound back="/video/request-create" /> : null;
  if (!data) return <Loading />;
  const title = translate('kadr.lists.request_title', { id: data.id });
  return (
    <Box sx={{ mt: 2 }} data-request-page={data.id}>
      <Title title={title} />
      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
            {/* The app bar names the request; the card starts with its state. */}
            <StatusBadge status={data.status} kind="request" />
            {data.status === 'loading' && (
              <Box sx={{ width: 200 }}>
                <LinearProgress variant="determinate" value={data.progress} />
              </Box>
            )}
            <Box sx={{ flex: 1 }} />
            <Button component={RouterLink} to="/video/request-create">
              {translate('kadr.lists.back_to_requests')}
            </Button>
            {data.status === 'success' && (
              <Button variant="contained" component={RouterLink} to={`/video/request/${data.idUpload}`}>
                {translate('kadr.videos.publish')}
              </Button>
            )}
          </Stack>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: 1, m: 0 }}>
            <Field label={translate('kadr.lists.created')}>{formatDate(data.createdAt)}</Field>
            <Field label={translate('kadr.lists.clip')}>{data.clipName}</Field>
            <Field label={translate('kadr.lists.options')}>
              <RequestOptions request={data} wide />
            </Field>
            {data.status === 'error' && data.error && (
              <Field label={translate('kadr.videos.fields.status')}>
                <RenderFailureText error={data.error} />
              </Field>
            )}
          </Box>
          <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1 }}>
            {translate('kadr.lists.request_outputs')}
          </Typography>
          {data.video.length ? (
            <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
              {data.video.map((v) => (
                <VideoPlayer
                  key={v.id}
                  url={v.url}
                  removed={v.removed}
                  name={translate('kadr.lists.request_output', { index: v.index + 1 })}
                />
              ))}
            </Stack>
          ) : (
            <Typography color={data.status === 'error' ? 'error' : 'text.secondary'} data-testid="request-no-outputs">
              {translate(
                data.status === 'error' ? 'kadr.lists.request_failed_no_outputs' : 'kadr.lists.request_no_outputs',
              )}
            </Typography>
          )}
          {data.status === 'success' && (
            <Suspense fallback={null}>
              <RequestVariants requestId={data.id} />
            </Suspense>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};

const Field = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <>
    <Typography component="dt" variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
      {children}
    </Box>
  </>
);
