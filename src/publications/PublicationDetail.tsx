import { Suspense, useEffect, useState } from 'react';
import {
  Confirm,
  Form,
  SaveButton,
  TextInput,
  Title,
  useDataProvider,
  useNotify,
  useTranslate,
  type HttpError,
} from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFormContext, useWatch, type FieldValues, type Resolver, type SubmitHandler } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Card, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import {
  PublicationPatchSchema,
  type PublicationPatch,
  isEditable,
  refusedByCheck,
  shownStatus,
  type Publication,
  type ProfilePlatforms,
  type PublicationVideo,
} from '../contract/publications';
import { PLATFORMS, type PlatformKey } from '../contract/platforms';
import type { ChosenProfile } from '../contract/profile-identity';
import { addTags } from '../contract/tags';
import { TagsInput } from '../common/TagsInput';
import { StatusBadge } from '../common/StatusBadge';
import { useFormatInZone } from '../common/useFormatInZone';
import { DEFAULT_TIME_ZONE } from '../contract/time-zones';
import { useStoredMessage } from '../common/useStoredMessage';
import type { KadrDataProvider } from '../providers/dataProvider';
import { Loading } from '../layout/Loading';
import { RecordNotFound, isGone } from '../layout/RecordNotFound';
import { QuickPick } from './QuickPick';
import { VideoPlayer } from './VideoPlayer';
import { ProfileName } from '../accounts/ProfileName';
import { PlatformStates, refreshEvery } from './PlatformStates';
import { useTagSets } from './options';
import { ProfilePlatformsInput, choiceOf, useSkippedNotice } from './ProfilePlatforms';
import { useVideoLabel } from './videoLabel';
import { POSTS_DEFAULTS, PlatformPostsCard } from './PlatformPostsCard';
import { cleanPosts, videoTexts } from '../contract/platform-posts';
import { VideoPostsFields, videoPostsValues, type VideoPostsValues } from './VideoPostsFields';
import { PublicationStats } from '../analytics/index';

const LIST_PATH = '/video/list';
const GONE = ['scheduled', 'waiting', 'failed', 'cancelled'];
/** A video can leave the publication while nothing of it has reached a platform yet. */
const removable = (v: PublicationVideo) => v.platforms.every((p) => GONE.includes(p.state) && !p.url);

/**
 * /video/youtube/{idUpload}: a publication (SPEC §2). Left: edit its title, description, tags (+ tag-set
 * quick-pick) and platform toggles ('Оновлено дані'). Right: each video with its profile, date (in the profile's
 * zone, named), links, status and error, and per platform the state, upload percent, wait and reason; Publish for
 * a video whose status is error or loading. Refreshes itself while anything is on its way; a failed load goes back to the list.
 */
export const PublicationDetail = () => {
  const { idUpload = '' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const key = ['upload-video', 'detail', idUpload];
  const { data, error, refetch } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => dataProvider.publication(idUpload, signal),
    retry: false,
    refetchInterval: (q) => refreshEvery(q.state.data?.video),
  });
  // Another user's publication, or none: the not-found screen (below); any other failure goes back to the list.
  const missing = isGone(error);
  useEffect(() => {
    if (!error || missing) return;
    const e = error as HttpError;
    notify(e.body?.message ?? e.message ?? 'kadr.notifications.error', { type: 'error' });
    navigate(LIST_PATH, { replace: true });
  }, [error, missing, notify, navigate]);

  const [confirmDelete, setConfirmDelete] = useState(false);
  const noticeSkipped = useSkippedNotice();
  const change = useMutation({
    mutationFn: ({ id, body }: { id: number; body: PublicationPatch }) => dataProvider.changePublication(id, body),
  });
  const removal = useMutation({ mutationFn: (id: number) => dataProvider.delete<Publication>('upload-video', { id }) });
  if (missing) return <RecordNotFound back={LIST_PATH} />;
  if (!data) return <Loading />;

  const edit = editOf(data);
  // The resolver hands over the PATCH body it validated (editOf's toBody).
  const update = async (body: ReturnType<typeof edit.toBody>) => {
    try {
      const { skipped } = await change.mutateAsync({ id: data.id, body });
      notify('kadr.notifications.updated', { type: 'success' });
      noticeSkipped(skipped);
      await refetch();
      return undefined;
    } catch (e) {
      const err = e as HttpError;
      const errors = err.body?.errors as Record<string, string> | undefined;
      notify(err.body?.message ?? 'kadr.notifications.error', { type: 'error' });
      return errors && Object.keys(errors).length ? errors : undefined;
    }
  };
  const remove = async () => {
    setConfirmDelete(false);
    try {
      await removal.mutateAsync(data.id);
      notify('kadr.publishing.deleted', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['upload-video'] });
      navigate(LIST_PATH);
    } catch (e) {
      notify((e as HttpError).body?.message ?? 'kadr.notifications.delete_failed', { type: 'error' });
    }
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Title title={translate('kadr.publishing.detail_title', { id: data.id, title: data.title || data.idUpload })} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card>
            <CardContent>
              {/* The app bar names the publication; the card starts with its state. */}
              <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
                <StatusBadge
                  status={shownStatus(
                    data.status,
                    data.video.some((v) => v.retrying),
                  )}
                />
              </Stack>
              <Form
                key={data.version}
                defaultValues={edit.defaults}
                resolver={edit.resolver}
                onSubmit={update as unknown as SubmitHandler<FieldValues>}
                noValidate
              >
                <EditFields />
              </Form>
              <Button color="error" size="small" sx={{ mt: 2 }} onClick={() => setConfirmDelete(true)}>
                {translate('kadr.publishing.delete')}
              </Button>
              <Confirm
                isOpen={confirmDelete}
                title="kadr.publishing.delete_title"
                content="kadr.publishing.delete_content"
                onConfirm={remove}
                onClose={() => setConfirmDelete(false)}
              />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={2}>
            {data.video.some((v) => v.platforms.some((p) => p.state === 'published')) && (
              <Suspense fallback={null}>
                <PublicationStats publicationId={data.id} />
              </Suspense>
            )}
            {!data.video.length && <Typography>{translate('kadr.common.nothing_found')}</Typography>}
            {data.video.map((v) => (
              <VideoCard key={v.id} video={v} publicationId={data.id} onChange={() => refetch()} />
            ))}
          </Stack>
        </Grid>
      </Grid>
    </Box>
  );
};

type EditValues = {
  title: string;
  description: string;
  tags: string[];
  /**
   * The videos the edit changes (no platform has started them), with their profiles (and files, for the preview),
   * their own fields (what their texts fall back to) and their own texts per platform.
   */
  video: {
    id: number;
    index: number;
    account: number | null;
    url: string | null;
    title: string;
    description: string;
    tags: string[];
    posts: VideoPostsValues;
  }[];
  /**
   * Their profiles, as options (the per-profile rows are named from them). The publication's answer does not say
   * whether one fails: the pickers' own answers do (src/publications/FailingProfiles.tsx).
   */
  accounts: ChosenProfile[];
  profiles: ProfilePlatforms[];
  /** Each platform's own text and options (issue 21 item 6), as saved over the platforms' defaults. */
  posts: typeof POSTS_DEFAULTS;
};

/**
 * The edit form of a publication (SPEC §5), planned as the publish form is: the videos no platform has started
 * yet, each profile's platforms as its pending posts are now; sent as the PATCH body with the toggles kept on
 * for the platforms of the videos already under way (the edit leaves those alone).
 */
function editOf(data: Publication) {
  const pending = data.video.filter((v) => isEditable(v.platforms));
  const started = data.video.filter((v) => !pending.includes(v)).flatMap((v) => v.platforms.map((p) => p.platform));
  const toggles = PLATFORMS.filter((k) =>
    k === 'youtube' ? data.inYouTube : k === 'tiktok' ? data.inTikTok : data.inInstagram,
  );
  const alsoOn: PlatformKey[] = pending.length ? started : toggles;
  const accounts = new Map(pending.flatMap((v) => (v.account ? [[v.account.id, v.account] as const] : [])));
  const defaults: EditValues = {
    title: data.title,
    description: data.description,
    tags: data.tags,
    video: pending.map((v) => ({
      id: v.id,
      index: v.index,
      account: v.account?.id ?? null,
      url: v.mediaUrl,
      title: v.title ?? data.title,
      description: v.description ?? data.description,
      tags: v.tags.length ? v.tags : data.tags,
      posts: videoPostsValues(v.posts),
    })),
    accounts: [...accounts.values()].map((a) => ({ ...a, title: a.name, value: a.id })),
    profiles: [...accounts.keys()].map((account) => ({
      account,
      platforms: PLATFORMS.filter((k) =>
        pending.some((v) => v.account?.id === account && v.platforms.some((p) => p.platform === k)),
      ),
    })),
    posts: {
      youtube: { ...POSTS_DEFAULTS.youtube, ...data.posts?.youtube },
      tiktok: { ...POSTS_DEFAULTS.tiktok, ...data.posts?.tiktok },
      instagram: { ...POSTS_DEFAULTS.instagram, ...data.posts?.instagram },
    },
  };
  const toBody = (v: EditValues) => ({
    title: v.title,
    description: v.description,
    tags: v.tags,
    ...choiceOf(v.video, v.profiles ?? [], alsoOn),
    posts: cleanPosts(v.posts),
    // Each pending video's own texts as the form has them (none left = none).
    ...(v.video.length ? { video: v.video.map((x) => ({ id: x.id, posts: videoTexts(x.posts) ?? {} })) } : {}),
  });
  const schema = zodResolver(PublicationPatchSchema) as unknown as Resolver<FieldValues>;
  const resolver: Resolver<FieldValues> = (values, ctx, opts) => schema(toBody(values as EditValues), ctx, opts);
  return { defaults, toBody, resolver };
}

const EditFields = () => {
  const translate = useTranslate();
  const { getValues, setValue, formState } = useFormContext();
  const tagSets = useTagSets();
  const label = useVideoLabel('request');
  const videos = useWatch({ name: 'video' }) as EditValues['video'] | undefined;
  return (
    <Stack spacing={1}>
      <TextInput source="title" label="kadr.publishing.fields.title" autoComplete="off" />
      <TextInput source="description" label="kadr.publishing.fields.description" multiline minRows={2} />
      <TagsInput source="tags" label="kadr.publishing.fields.tags" />
      <QuickPick
        label="kadr.publishing.tag_set_pick"
        items={tagSets.data}
        loading={tagSets.isPending}
        onPick={(s) =>
          setValue('tags', addTags(getValues('tags') ?? [], s.tags.join(' ')), {
            shouldDirty: true,
            shouldValidate: formState.isSubmitted,
          })
        }
      />
      {/* Platforms are chosen for the videos no platform has started: with none left, there is nothing to choose. */}
      {!!videos?.length && <ProfilePlatformsInput label={label} />}
      <PlatformPostsCard ai={false} stacked />
      {!!videos?.length && (
        <Card variant="outlined" data-testid="video-texts">
          <CardContent>
            <Typography variant="h6">{translate('kadr.platform_posts.videos_title')}</Typography>
            <Stack spacing={1} sx={{ mt: 1 }}>
              {videos.map((v, i) => (
                <Box key={v.id} role="group" aria-label={label(v)}>
                  <Typography variant="subtitle2">{label(v)}</Typography>
                  <VideoPostsFields source={`video.${i}`} name={label(v)} />
                </Box>
              ))}
            </Stack>
          </CardContent>
        </Card>
      )}
      <Box>
        <SaveButton label="kadr.common.save" alwaysEnable />
      </Box>
    </Stack>
  );
};

const VideoCard = ({
  video: v,
  publicationId,
  onChange,
}: {
  video: PublicationVideo;
  publicationId: number;
  onChange: () => void;
}) => {
  const translate = useTranslate();
  // Its dates in its profile's zone, the zone named (issue 21 item 2); a video without a profile in UTC.
  const formatDate = useFormatInZone(v.account?.timeZone ?? DEFAULT_TIME_ZONE);
  const notify = useNotify();
  const stored = useStoredMessage();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const name = translate('kadr.publishing.video_n', { n: v.index + 1, id: v.id });
  // Kadr's own pre-upload check refused the file on every failed platform: publishing again fails the same way.
  const failed = v.platforms.filter((p) => p.state === 'failed');
  const checkRefused = failed.length > 0 && failed.every(refusedByCheck);
  const error = v.error || v.errorInstagram || v.errorTikTok;

  const act = async (send: () => Promise<unknown>, ok: string, failed: string) => {
    setBusy(true);
    try {
      await send();
      notify(ok, { type: 'success' });
    } catch (e) {
      notify(failed, { type: 'error' });
      const msg = (e as HttpError).body?.message;
      if (msg) notify(msg, { type: 'error' });
    } finally {
      setBusy(false);
      onChange();
    }
  };
  const publish = () =>
    act(() => dataProvider.publishAgain(v.id, publicationId), 'kadr.videos.published', 'kadr.videos.publish_failed');
  const remove = () => {
    setConfirmRemove(false);
    return act(
      () => dataProvider.removeFromPublication(v.id),
      'kadr.publishing.video_removed',
      'kadr.notifications.delete_failed',
    );
  };

  return (
    <Card data-video={v.id} role="group" aria-label={name}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <VideoPlayer url={v.mediaUrl} removed={v.mediaRemoved} name={name} width={140} />
          <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
            <Stack direction="row" spacing={1} alignItems="center">
              <Typography variant="subtitle1" sx={{ flex: 1 }}>
                {name}
              </Typography>
              <StatusBadge status={shownStatus(v.status, v.retrying)} />
            </Stack>
            {v.title && (
              <Typography variant="body2">
                <b>{v.title}</b>
              </Typography>
            )}
            <Typography variant="body2" component="div" sx={{ display: 'flex', gap: 0.5, minWidth: 0 }}>
              {translate('kadr.publishing.fields.account')}:{' '}
              {v.account ? (
                <Link component={RouterLink} to={`/accounts/${v.account.id}`} sx={{ minWidth: 0 }}>
                  <ProfileName profile={{ ...v.account, title: v.account.name }} maxWidth="100%" />
                </Link>
              ) : (
                translate('kadr.common.not_available')
              )}
            </Typography>
            <Typography variant="body2" data-date>
              {translate('kadr.publishing.video_date')}: {formatDate(v.date) || translate('kadr.common.not_available')}
            </Typography>
            <Stack direction="row" spacing={1}>
              {v.urlInstagram && (
                <Link href={v.urlInstagram} target="_blank" rel="noreferrer">
                  {translate('kadr.publishing.platforms.instagram')}
                </Link>
              )}
              {v.urlYouTube && (
                <Link href={v.urlYouTube} target="_blank" rel="noreferrer">
                  {translate('kadr.publishing.platforms.youtube')}
                </Link>
              )}
              {v.urlTikTok && (
                <Link href={v.urlTikTok} target="_blank" rel="noreferrer">
                  {translate('kadr.publishing.platforms.tiktok')}
                </Link>
              )}
            </Stack>
            {/* The video's error text (SPEC §2), unless its platform rows below already say why. */}
            {v.status === 'error' && !v.platforms.some((p) => p.error) && (
              <Typography variant="body2" color="error">
                {stored(error) || translate('kadr.common.not_available')}
              </Typography>
            )}
            <OwnTexts video={v} />
            <PlatformStates video={v} onChange={onChange} />
            <Stack direction="row" spacing={1}>
              {(v.status === 'error' || v.status === 'loading') && !checkRefused && (
                <Button variant="contained" size="small" disabled={busy} onClick={publish}>
                  {translate('kadr.videos.publish')}
                </Button>
              )}
              {removable(v) && v.platforms.some((p) => p.state !== 'cancelled') && (
                <Button color="error" size="small" disabled={busy} onClick={() => setConfirmRemove(true)}>
                  {translate('kadr.publishing.remove_from_publication')}
                </Button>
              )}
            </Stack>
            {v.status === 'error' && checkRefused && (
              <Typography variant="caption" color="text.secondary" data-testid="check-refused">
                {translate('kadr.publishing.check_refused')}
              </Typography>
            )}
            <Confirm
              isOpen={confirmRemove}
              title="kadr.publishing.remove_title"
              titleTranslateOptions={{ name }}
              content="kadr.publishing.remove_content"
              onConfirm={remove}
              onClose={() => setConfirmRemove(false)}
            />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

/** A video's own title/caption per platform, as saved (issue 21 item 6, per video); nothing when it has none. */
const OwnTexts = ({ video }: { video: PublicationVideo }) => {
  const translate = useTranslate();
  // Labelled as the form's fields are (kadr.platform_posts.<platform>.<field>).
  const texts = Object.entries(videoTexts(video.posts) ?? {}).flatMap(([platform, fields]) =>
    Object.entries(fields ?? {}).map(([field, text]) => ({ key: `${platform}.${field}`, text })),
  );
  if (!texts.length) return null;
  return (
    <Box data-testid="own-texts" sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary">
        {translate('kadr.platform_posts.own_texts')}
      </Typography>
      {texts.map((t) => (
        <Typography
          key={t.key}
          variant="body2"
          data-own-text={t.key}
          sx={{ wordBreak: 'break-word', whiteSpace: 'pre-line' }}
        >
          {translate(`kadr.platform_posts.${t.key}`)}: {t.text}
        </Typography>
      ))}
    </Box>
  );
};
