import { useState } from 'react';
import { BooleanInput, NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Alert, Card, CardContent, Stack, Tab, Tabs, Typography } from '@mui/material';
import {
  YOUTUBE_CATEGORIES,
  YOUTUBE_PRIVACY,
  defaultCaption,
  postCounters,
  type PlatformPosts,
} from '../contract/platform-posts';
import { PLATFORMS, PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import { PostCounter } from './PostCounter';
import { PostPreview } from './PostPreview';
import { previewName } from './previewName';
import { TikTokPostOptions } from './TikTokPostOptions';
import { useAccountOptions } from './options';

/** The form's defaults of `posts`: each platform's options as the platforms default them. */
export const POSTS_DEFAULTS = {
  youtube: { title: '', description: '', privacy: 'public', categoryId: '', playlistId: '', madeForKids: false },
  tiktok: { caption: '', privacyLevel: '', promotion: 'none' },
  instagram: { caption: '', shareToFeed: true },
};

type Watched = [string, string, string[], PlatformPosts | undefined, { url: string | null; account: number | null }[]];

/**
 * The publish form's per-platform posts (issue 21 item 6): for each platform its own title/caption (empty = the
 * shared ones) with live counters of the platform's limits, a preview of the post as the platform shows it, and
 * the options it offers: YouTube visibility, category, playlist, made for kids; TikTok what its creator_info allows
 * and the promotion mark; Instagram share to feed and the cover frame. An AI video is said to carry the platforms'
 * AI label (the server sends it, it is not a choice). The publication page edits the same fields (`stacked`).
 */
export const PlatformPostsCard = ({ ai, stacked = false }: { ai: boolean; stacked?: boolean }) => {
  const translate = useTranslate();
  const [tab, setTab] = useState<PlatformKey>('youtube');
  const [title, description, tags, posts, videos] = useWatch({
    name: ['title', 'description', 'tags', 'posts', 'video'],
  }) as Watched;
  const shared = { title: title ?? '', description: description ?? '', tags: tags ?? [] };
  const counters = postCounters(posts, shared);
  const first = videos?.[0];
  const profiles = useAccountOptions();
  const option = profiles.data?.find((o) => o.value === first?.account);
  const yt = posts?.youtube;
  // A platform of the list the spec names no options for shows the shared title and none of these.
  const text: Partial<Record<PlatformKey, string>> = {
    youtube: yt?.title?.trim() || shared.title,
    tiktok: posts?.tiktok?.caption || defaultCaption('tiktok', shared),
    instagram: posts?.instagram?.caption || defaultCaption('instagram', shared),
  };
  return (
    <Card data-testid="platform-posts" variant={stacked ? 'outlined' : undefined}>
      <CardContent>
        <Typography variant="h6">{translate('kadr.platform_posts.title')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('kadr.platform_posts.hint')}
        </Typography>
        {ai && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {translate('kadr.platform_posts.ai_notice')}
          </Alert>
        )}
        <Tabs value={tab} onChange={(_e, v: PlatformKey) => setTab(v)} sx={{ mb: 1 }}>
          {PLATFORMS.map((p) => (
            <Tab key={p} value={p} label={PLATFORM_TITLES[p]} />
          ))}
        </Tabs>
        {/* Stacked: the fields above the preview (a narrow column, the publication page's edit card). */}
        <Stack direction={stacked ? 'column' : { xs: 'column', sm: 'row' }} spacing={2}>
          <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
            {tab === 'youtube' && (
              <>
                <TextInput
                  source="posts.youtube.title"
                  label="kadr.platform_posts.youtube.title"
                  // Not the shared title itself: a long one would be cut in the field (the preview shows it whole).
                  placeholder={translate('kadr.platform_posts.youtube.title_placeholder')}
                  autoComplete="off"
                  helperText={false}
                />
                <PostCounter counter={counters.youtube![0]!} />
                <TextInput
                  source="posts.youtube.description"
                  label="kadr.platform_posts.youtube.description"
                  multiline
                  minRows={2}
                  helperText={false}
                />
                <PostCounter counter={counters.youtube![1]!} />
                <SelectInput
                  source="posts.youtube.privacy"
                  label="kadr.platform_posts.youtube.privacy"
                  choices={YOUTUBE_PRIVACY.map((p) => ({
                    id: p,
                    name: `kadr.platform_posts.youtube.privacy_levels.${p}`,
                  }))}
                  helperText={false}
                />
                <SelectInput
                  source="posts.youtube.categoryId"
                  label="kadr.platform_posts.youtube.category"
                  choices={YOUTUBE_CATEGORIES.map((c) => ({
                    id: c,
                    name: `kadr.platform_posts.youtube.categories.${c}`,
                  }))}
                  emptyText="kadr.platform_posts.youtube.category_auto"
                  helperText={false}
                />
                <TextInput
                  source="posts.youtube.playlistId"
                  label="kadr.platform_posts.youtube.playlist"
                  autoComplete="off"
                  helperText={false}
                />
                <BooleanInput
                  source="posts.youtube.madeForKids"
                  label="kadr.platform_posts.youtube.made_for_kids"
                  helperText={false}
                />
              </>
            )}
            {tab === 'tiktok' && (
              <>
                <TextInput
                  source="posts.tiktok.caption"
                  label="kadr.platform_posts.tiktok.caption"
                  placeholder={defaultCaption('tiktok', shared)}
                  multiline
                  minRows={2}
                  helperText={false}
                />
                <PostCounter counter={counters.tiktok![0]!} />
                <TikTokPostOptions account={first?.account ?? null} profile={option?.title ?? ''} />
              </>
            )}
            {tab === 'instagram' && (
              <>
                <TextInput
                  source="posts.instagram.caption"
                  label="kadr.platform_posts.instagram.caption"
                  placeholder={defaultCaption('instagram', shared)}
                  multiline
                  minRows={2}
                  helperText={false}
                />
                <PostCounter counter={counters.instagram![0]!} />
                <PostCounter counter={counters.instagram![1]!} label="kadr.platform_posts.hashtags" />
                <BooleanInput
                  source="posts.instagram.shareToFeed"
                  label="kadr.platform_posts.instagram.share_to_feed"
                  helperText={false}
                />
                <NumberInput
                  source="posts.instagram.thumbOffsetMs"
                  label="kadr.platform_posts.instagram.cover"
                  min={0}
                  step={0.5}
                  format={(ms: number | null | undefined) => (ms == null ? '' : ms / 1000)}
                  parse={(s: string) => (s === '' || s == null ? undefined : Math.round(Number(s) * 1000))}
                  helperText={false}
                />
              </>
            )}
          </Stack>
          <PostPreview
            platform={tab}
            url={first?.url ?? null}
            profile={previewName(option, tab)}
            text={text[tab] ?? shared.title}
            coverMs={tab === 'instagram' ? posts?.instagram?.thumbOffsetMs : undefined}
          />
        </Stack>
      </CardContent>
    </Card>
  );
};
