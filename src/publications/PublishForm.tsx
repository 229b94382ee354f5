import { useEffect, useMemo } from 'react';
import {
  BooleanInput,
  Form,
  SaveButton,
  TextInput,
  Title,
  useDataProvider,
  useNotify,
  useTranslate,
  type HttpError,
} from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  useFieldArray,
  useFormContext,
  useFormState,
  type FieldValues,
  type Resolver,
  type SubmitHandler,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Box, Card, CardContent, FormHelperText, Grid, IconButton, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  publicationCreateSchema,
  type PublicationCreateSchema,
  type ProfilePlatforms,
  type PublishRules,
  type PublishSource,
} from '../contract/publications';
import type { SelectOption } from '../contract/groups';
import { addTags } from '../contract/tags';
import { TagsInput } from '../common/TagsInput';
import { AccountsSelectInput } from '../groups/AccountsSelectInput';
import type { KadrDataProvider } from '../providers/dataProvider';
import { Loading } from '../layout/Loading';
import { RecordNotFound, isGone } from '../layout/RecordNotFound';
import { AccountPicker } from './AccountPicker';
import { QuickPick } from './QuickPick';
import { ProfileDateInput } from './ProfileDateInput';
import { QueueButton } from './QueueButton';
import { VideoPlayer } from './VideoPlayer';
import { useAccountOptions, useGroupAccounts, useGroups, useTagSets } from './options';
import { ProfilePlatformsInput, choiceOf, useSkippedNotice } from './ProfilePlatforms';
import { useSharedFieldsCopy } from './sharedFields';
import { UnusedProfiles } from './UnusedProfiles';
import { FailingProfiles } from './FailingProfiles';
import { useVideoLabel } from './videoLabel';
import { nowIso } from './utcInput';
import { detailPath } from './paths';
import { POSTS_DEFAULTS, PlatformPostsCard } from './PlatformPostsCard';
import { cleanPosts, videoTexts } from '../contract/platform-posts';
import { VIDEO_POSTS_DEFAULTS, VideoPostsFields, type VideoPostsValues } from './VideoPostsFields';

type VideoValues = {
  id: number;
  index: number;
  url: string | null;
  title: string;
  description: string;
  tags: string[];
  account: number | null;
  date: string;
  /** Post it even when this file is already live on the profile and platform (issue 21 item 5). */
  allowRepeat?: boolean;
  /** Its own title/caption per platform (issue 21 item 6, per video); empty = the publication's. */
  posts?: VideoPostsValues;
};
type FormValues = {
  title: string;
  description: string;
  tags: string[];
  accounts: SelectOption[];
  date: string;
  inYouTube: boolean;
  inTikTok: boolean;
  inInstagram: boolean;
  profiles: ProfilePlatforms[];
  video: VideoValues[];
  posts: typeof POSTS_DEFAULTS;
  queue?: boolean;
};

/**
 * The form's values → the API body (profiles as ids; each video's own fields; the platforms per profile of the
 * videos' profiles, and SPEC's toggles as their union).
 */
const toBody = (v: FormValues) => {
  return {
    title: v.title,
    description: v.description,
    tags: v.tags,
    date: v.date,
    ...(v.queue ? { queue: true } : {}),
    ...choiceOf(v.video ?? [], v.profiles ?? []),
    accounts: (v.accounts ?? []).map((o) => Number(o.value)),
    video: (v.video ?? []).map(({ id, title, description, tags, account, date, allowRepeat, posts }) => {
      const own = videoTexts(posts);
      return {
        id,
        title,
        description,
        tags,
        account,
        date,
        ...(allowRepeat ? { allowRepeat } : {}),
        ...(own ? { posts: own } : {}),
      };
    }),
    posts: cleanPosts(v.posts),
  };
};

/** What the resolver hands to the submit: the body the contract validated. */
type Body = z.output<typeof PublicationCreateSchema>;
/**
 * The contract validates the body the form will send (profiles as ids); its field paths are the form's. The
 * server's scheduling horizon (its publish rules) is the same schema's, so a date too far ahead is said with the
 * server's message before saving.
 */
const resolverFor = (rules: PublishRules | undefined): Resolver<FieldValues> => {
  // Rules that could not be read: the years still count here, the horizon on the server.
  const horizon = rules && { days: rules.horizonDays, now: Date.now };
  const schema = zodResolver(publicationCreateSchema(horizon)) as unknown as Resolver<FieldValues>;
  return (values, ctx, opts) => schema(toBody(values as FormValues), ctx, opts);
};

/** Fields the form shows, where a server's field message goes. */
const SHOWN_FIELD =
  /^(?:video\.\d+\.(?:title|description|tags|account|date|allowRepeat|posts\.(?:youtube|tiktok|instagram)\.\w+)|title|description|tags|accounts|date|inYouTube|posts\.(?:youtube|tiktok|instagram)\.\w+)$/;

/**
 * /video/request/{idUpload} and /ai/video/{id}/publish: the publish form (SPEC §2, §5, §8) of a finished request's
 * videos, or of one AI video prefilled with its title, description, tags and its session's profile. Left: the
 * shared title, description, tags (chips + a tag-set quick-pick), profiles (+ a group quick-pick), the platforms
 * per profile (each starting from what it has connected) with what will be skipped, and the date (UTC, default
 * now). Right: each video with a player, its own title, description, tags, profile, date and a delete. Save sends
 * it all: 'Відео надіслано на публікацію' (and what was skipped), then the publication's page (an AI video: the
 * AI video list). A source that cannot be read or is not finished goes back to its list; an already published one
 * opens its publication. Its starting point is the publish source, which the server answers whether or not the
 * request was published (no 404 on a first open).
 */
export const PublishForm = () => {
  const { idUpload = '', aiId } = useParams();
  const ai = aiId !== undefined;
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const back = ai ? '/ai/video' : '/video/request-create';
  const source = useQuery({
    queryKey: ['upload-video', 'form', ai ? 'ai' : 'request', ai ? aiId : idUpload],
    queryFn: ({ signal }) => dataProvider.publishSource(ai ? 'ai' : 'request', ai ? aiId : idUpload, signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const accountOptions = useAccountOptions();
  const noticeSkipped = useSkippedNotice();

  const rules = useQuery({
    queryKey: ['upload-video', 'rules'],
    queryFn: ({ signal }) => dataProvider.publishRules(signal),
    staleTime: Infinity,
  });
  const rulesRead = rules.data !== undefined || rules.isError;
  const resolver = useMemo(() => (rulesRead ? resolverFor(rules.data) : undefined), [rulesRead, rules.data]);

  const published = source.data?.publicationId != null;
  const notReady = source.data && !source.data.ready && !published;
  // Another user's request or AI video, or none: the not-found screen (below), not a toast over its list.
  const missing = isGone(source.error);
  useEffect(() => {
    if (missing) return;
    if (source.error || notReady || (published && ai)) {
      const e = source.error as HttpError | null;
      notify(
        published
          ? 'kadr.ai_errors.video_published'
          : notReady
            ? ai
              ? 'kadr.ai_errors.video_not_ready'
              : 'kadr.publications.errors.request_not_ready'
            : (e?.body?.message ?? e?.message ?? 'kadr.notifications.error'),
        { type: 'error' },
      );
      navigate(back, { replace: true });
    } else if (published) navigate(detailPath(idUpload), { replace: true });
  }, [missing, source.error, notReady, published, ai, back, idUpload, notify, navigate]);

  // An AI video's profile is picked for it; its option (for the chip) comes from the caller's profiles.
  const waitsForOptions = ai && source.data?.account != null && accountOptions.isPending;
  const defaults = useMemo<FormValues | null>(() => {
    const src = source.data;
    if (!src || waitsForOptions) return null;
    const date = nowIso();
    const option = src.account != null ? accountOptions.data?.find((o) => Number(o.value) === src.account) : undefined;
    return {
      title: src.title,
      description: src.description,
      tags: src.tags,
      accounts: option ? [option] : [],
      date,
      inYouTube: false,
      inTikTok: false,
      inInstagram: false,
      profiles: [],
      posts: structuredClone(POSTS_DEFAULTS),
      video: src.video.map((v) => ({
        id: v.id,
        index: v.index,
        url: v.url,
        title: src.title,
        description: src.description,
        tags: src.tags,
        account: src.account,
        date,
        posts: structuredClone(VIDEO_POSTS_DEFAULTS),
      })),
    };
    // The defaults are made once per source: a later refetch of the options must not reset the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source.data, waitsForOptions]);

  // What was left out (a profile × platform the profile is not connected to).
  const { mutateAsync: publish } = useMutation({
    mutationFn: async (body: Body) =>
      (ai ? await dataProvider.publishAiVideo(aiId, body) : await dataProvider.publishRequest(idUpload, body)).skipped,
  });
  const save = async (body: Body) => {
    try {
      const skipped = await publish(body);
      notify('kadr.videos.published', { type: 'success' });
      noticeSkipped(skipped);
      // Stale, not refetched here: this form's own source would then read as "already sent" under it.
      await queryClient.invalidateQueries({ queryKey: ['upload-video'], refetchType: 'none' });
      navigate(ai ? '/ai/video' : detailPath(idUpload));
      return undefined;
    } catch (e) {
      const err = e as HttpError;
      notify('kadr.videos.publish_failed', { type: 'error' });
      const errors = Object.entries((err.body?.errors ?? {}) as Record<string, string>);
      const shown = errors.filter(([field]) => SHOWN_FIELD.test(field));
      // A reason no field of the form shows (a profile of the list, a video id, the request): as a toast.
      const other = errors.length
        ? errors.filter(([field]) => !SHOWN_FIELD.test(field)).map(([, m]) => m)
        : [err.body?.message];
      for (const m of new Set(other)) if (m) notify(m, { type: 'error' });
      return shown.length ? Object.fromEntries(shown) : undefined;
    }
  };

  if (missing) return <RecordNotFound back={back} />;
  if (!defaults || !resolver || notReady || published) return <Loading />;
  const src = source.data!;
  return (
    <Box sx={{ mt: 1 }}>
      <Title
        title={translate(ai ? 'kadr.publishing.ai_publish_title' : 'kadr.publishing.publish_title', { id: src.id })}
      />
      <Form
        defaultValues={defaults}
        resolver={resolver}
        onSubmit={save as unknown as SubmitHandler<FieldValues>}
        noValidate
      >
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 5 }}>
            <SharedCard kind={src.kind} />
          </Grid>
          <Grid size={{ xs: 12, md: 7 }}>
            <VideosCard kind={src.kind} />
          </Grid>
          <Grid size={12}>
            <PlatformPostsCard ai={ai} />
          </Grid>
        </Grid>
      </Form>
    </Box>
  );
};

const SharedCard = ({ kind }: { kind: PublishSource['kind'] }) => {
  const translate = useTranslate();
  const label = useVideoLabel(kind);
  const notify = useNotify();
  const { getValues, setValue, formState } = useFormContext<FormValues>();
  const groups = useGroups();
  const tagSets = useTagSets();
  const groupAccounts = useGroupAccounts();
  useSharedFieldsCopy();
  const opts = { shouldDirty: true, shouldValidate: formState.isSubmitted };
  const pickGroup = async (g: { id: number }) => {
    try {
      setValue('accounts', await groupAccounts(g.id), opts);
    } catch (e) {
      notify((e as HttpError).body?.message ?? 'kadr.notifications.error', { type: 'error' });
    }
  };
  return (
    <Card>
      <CardContent>
        <Stack spacing={1}>
          <Typography variant="h6">{translate('kadr.publishing.shared')}</Typography>
          <TextInput source="title" label="kadr.publishing.fields.title" autoComplete="off" />
          <TextInput source="description" label="kadr.publishing.fields.description" multiline minRows={2} />
          <TagsInput source="tags" label="kadr.publishing.fields.tags" />
          <QuickPick
            label="kadr.publishing.tag_set_pick"
            items={tagSets.data}
            loading={tagSets.isPending}
            onPick={(s) => setValue('tags', addTags(getValues('tags') ?? [], s.tags.join(' ')), opts)}
          />
          <AccountsSelectInput source="accounts" label="kadr.publishing.fields.accounts" />
          <UnusedProfiles />
          <FailingProfiles />
          <QuickPick
            label="kadr.publishing.group_pick"
            items={groups.data}
            loading={groups.isPending}
            onPick={pickGroup}
          />
          <ProfilePlatformsInput label={label} />
          <ProfileDateInput source="date" label="kadr.slots.date" />
          <Stack direction="row" spacing={1}>
            <SaveButton label="kadr.common.save" alwaysEnable />
            {kind !== 'ai' && <QueueButton />}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
};

const VideosCard = ({ kind }: { kind: PublishSource['kind'] }) => {
  const translate = useTranslate();
  const label = useVideoLabel(kind);
  const { fields, remove } = useFieldArray<FormValues, 'video', 'key'>({ name: 'video', keyName: 'key' });
  const { errors, isSubmitted } = useFormState({ name: 'video' });
  const videoErrors = errors.video as { message?: unknown; root?: { message?: unknown } } | undefined;
  const listError = videoErrors?.message ?? videoErrors?.root?.message;
  return (
    <Card>
      <CardContent>
        <Typography variant="h6">{translate('kadr.publishing.videos', { count: fields.length })}</Typography>
        {isSubmitted && typeof listError === 'string' && (
          <FormHelperText error>{translate(listError, { _: listError })}</FormHelperText>
        )}
        {!fields.length && <Typography sx={{ py: 2 }}>{translate('kadr.common.nothing_found')}</Typography>}
        <Stack spacing={2} sx={{ mt: 1 }}>
          {fields.map((f, i) => {
            const name = label(f);
            return (
              <Card key={f.key} variant="outlined" data-video={f.id} role="group" aria-label={name}>
                <CardContent>
                  <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
                    <Typography variant="subtitle1" sx={{ flex: 1 }}>
                      {name}
                    </Typography>
                    <IconButton
                      aria-label={translate('kadr.publishing.remove_video', { name })}
                      title={translate('kadr.publishing.remove_video', { name })}
                      onClick={() => remove(i)}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </Stack>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                    <VideoPlayer url={f.url} name={name} width={150} />
                    <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
                      <TextInput
                        source={`video.${i}.title`}
                        label="kadr.publishing.fields.title"
                        autoComplete="off"
                        helperText={false}
                      />
                      <TextInput
                        source={`video.${i}.description`}
                        label="kadr.publishing.fields.description"
                        multiline
                        helperText={false}
                      />
                      <TagsInput source={`video.${i}.tags`} label="kadr.publishing.fields.tags" />
                      <AccountPicker source={`video.${i}.account`} label="kadr.publishing.fields.account" />
                      <ProfileDateInput
                        source={`video.${i}.date`}
                        accountSource={`video.${i}.account`}
                        label="kadr.slots.date"
                      />
                      <BooleanInput
                        source={`video.${i}.allowRepeat`}
                        label="kadr.publishing.fields.allow_repeat"
                        helperText={false}
                      />
                      {/* An AI video is the publication's one video: the per-platform card is its own. */}
                      {kind !== 'ai' && <VideoPostsFields source={`video.${i}`} name={name} />}
                    </Stack>
                  </Stack>
                </CardContent>
              </Card>
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
};
