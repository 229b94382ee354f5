import { Fragment, useId, useState } from 'react';
import { TextInput, useTranslate } from 'react-admin';
import { get, useFormState, useWatch } from 'react-hook-form';
import { Badge, Box, Button, Collapse, Stack, Typography } from '@mui/material';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  defaultCaption,
  postCounters,
  postsForVideo,
  videoTextCount,
  type PlatformPosts,
  type PostCounter as Counter,
  type VideoPosts,
} from '../contract/platform-posts';
import { PLATFORMS, type PlatformKey } from '../contract/platforms';
import type { ProfilePlatforms } from '../contract/publications';
import { PostCounter } from './PostCounter';

/** The form's empty texts of one video (its fields controlled from the start). */
export const VIDEO_POSTS_DEFAULTS = {
  youtube: { title: '', description: '' },
  tiktok: { caption: '' },
  instagram: { caption: '' },
};
export type VideoPostsValues = typeof VIDEO_POSTS_DEFAULTS;

/** A video's saved texts as the form's values (every field there, empty where it has none). */
export const videoPostsValues = (own: VideoPosts | undefined): VideoPostsValues => ({
  youtube: { ...VIDEO_POSTS_DEFAULTS.youtube, ...own?.youtube },
  tiktok: { ...VIDEO_POSTS_DEFAULTS.tiktok, ...own?.tiktok },
  instagram: { ...VIDEO_POSTS_DEFAULTS.instagram, ...own?.instagram },
});

/** The labels stay above the fields, so the greyed fallback shows while a field is empty. */
const SHRUNK = { inputLabel: { shrink: true } };
/** A fallback as the field's placeholder: its start (a long caption would stretch the empty field). */
const hint = (s: string) => ([...s].length > 160 ? `${[...s].slice(0, 160).join('')}…` : s);

type Watched = [
  string | undefined,
  string | undefined,
  string[] | undefined,
  VideoPosts | undefined,
  number | null | undefined,
];

/**
 * The platforms whose texts a video's section shows: those chosen for its profile (the form's `profiles`), and any
 * other that already has a text of this video's (unticking a platform hides no text the user wrote). All three
 * while the video has no profile, or its profile's platforms are not known yet.
 */
export function shownPlatforms(
  account: number | null | undefined,
  chosen: readonly ProfilePlatforms[] | undefined,
  own: VideoPosts | undefined,
): PlatformKey[] {
  const platforms = chosen?.find((p) => p.account === account)?.platforms;
  if (!account || !platforms) return [...PLATFORMS];
  const written = (k: PlatformKey) => Object.values(own?.[k] ?? {}).some((v) => typeof v === 'string' && v !== '');
  return PLATFORMS.filter((k) => platforms.includes(k) || written(k));
}

/**
 * One video's own title/caption per platform (issue 21 item 6, per video), under a button of its row that says
 * how many it has: YouTube title and description, TikTok caption, Instagram caption (of the platforms chosen for
 * the video's profile: shownPlatforms), each with the live counter
 * of its platform's limit, counting what this video will send. An empty field shows, greyed, what it falls back
 * to: the publication's platform text (the "per-platform posts" card), else the one made from this video's own
 * title, description and tags. Opens by itself when one of its fields has an error. `source` is the video's path
 * in the form (`video.1`); the video's shared fields are `${source}.title` etc., its texts `${source}.posts`.
 */
export const VideoPostsFields = ({ source, name }: { source: string; name: string }) => {
  const translate = useTranslate();
  const [title, description, tags, own, account] = useWatch({
    name: [`${source}.title`, `${source}.description`, `${source}.tags`, `${source}.posts`, `${source}.account`],
  }) as Watched;
  const publication = useWatch({ name: 'posts' }) as PlatformPosts | undefined;
  const profiles = useWatch({ name: 'profiles' }) as ProfilePlatforms[] | undefined;
  const shownOn = shownPlatforms(account, profiles, own);
  const { errors } = useFormState({ name: `${source}.posts` });
  const failing = Boolean(get(errors, `${source}.posts`));
  const [open, setOpen] = useState(false);
  const shown = open || failing;
  const panel = useId();
  const shared = { title: title ?? '', description: description ?? '', tags: tags ?? [] };
  const counters = postCounters(postsForVideo(publication, own), shared);
  const count = videoTextCount(own);
  // What an empty field falls back to: the publication's platform text, else this video's own fields.
  const fallback = {
    youtubeTitle: publication?.youtube?.title?.trim() || shared.title,
    youtubeDescription: publication?.youtube?.description || shared.description,
    tiktok: publication?.tiktok?.caption || defaultCaption('tiktok', shared),
    instagram: publication?.instagram?.caption || defaultCaption('instagram', shared),
  };
  // Each text field of the section: its platform, its path under `posts` (and its label's key), what it falls
  // back to, and its counters.
  const fields: { platform: PlatformKey; field: string; fallback: string; counters: [Counter, string?][] }[] = [
    {
      platform: 'youtube',
      field: 'youtube.title',
      fallback: fallback.youtubeTitle,
      counters: [[counters.youtube![0]!]],
    },
    {
      platform: 'youtube',
      field: 'youtube.description',
      fallback: fallback.youtubeDescription,
      counters: [[counters.youtube![1]!]],
    },
    { platform: 'tiktok', field: 'tiktok.caption', fallback: fallback.tiktok, counters: [[counters.tiktok![0]!]] },
    {
      platform: 'instagram',
      field: 'instagram.caption',
      fallback: fallback.instagram,
      counters: [[counters.instagram![0]!], [counters.instagram![1]!, 'kadr.platform_posts.hashtags']],
    },
  ];
  const label = translate('kadr.platform_posts.video_texts');
  return (
    <Box data-video-posts={source}>
      <Button
        size="small"
        onClick={() => setOpen(!shown)}
        aria-expanded={shown}
        aria-controls={panel}
        aria-label={translate('kadr.platform_posts.video_texts_of', { name })}
        startIcon={shown ? <ExpandLessIcon /> : <ExpandMoreIcon />}
        endIcon={
          count > 0 ? (
            <Badge
              badgeContent={count}
              color="primary"
              data-own-texts={count}
              sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
            />
          ) : undefined
        }
        sx={{ alignSelf: 'flex-start', textAlign: 'left' }}
      >
        {label}
      </Button>
      <Collapse in={shown} unmountOnExit>
        <Stack id={panel} spacing={0.5} sx={{ pt: 1, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            {translate('kadr.platform_posts.video_texts_hint')}
          </Typography>
          {shownOn.length === 0 && (
            <Typography variant="body2" data-testid="video-texts-none">
              {translate('kadr.platform_posts.video_texts_none')}
            </Typography>
          )}
          {fields
            .filter((f) => shownOn.includes(f.platform))
            .map((f) => (
              <Fragment key={f.field}>
                <TextInput
                  source={`${source}.posts.${f.field}`}
                  label={`kadr.platform_posts.${f.field}`}
                  placeholder={hint(f.fallback)}
                  slotProps={SHRUNK}
                  multiline={f.field !== 'youtube.title'}
                  autoComplete="off"
                  helperText={false}
                />
                {f.counters.map(([counter, label]) => (
                  <PostCounter key={counter.field} counter={counter} label={label} />
                ))}
              </Fragment>
            ))}
        </Stack>
      </Collapse>
    </Box>
  );
};
