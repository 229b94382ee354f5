import {
  PlatformPostsSchema,
  POST_LIMITS,
  charCount,
  cleanPosts,
  defaultCaption,
  hashtagCount,
  parseVideoPosts,
  postCounters,
  postsForVideo,
  storedVideoPosts,
  videoTextCount,
  withVideoText,
} from '../../src/contract/platform-posts';
import { decodeMessage } from '../../src/contract/stored-message';
import { buildInstagramCaption } from '../../server/platforms/instagram/instagram.preflight';
import { tiktokCaption, tiktokPostSwitches } from '../../server/platforms/tiktok/tiktok.post-info';
import { youtubeUpload } from '../../server/platforms/youtube/youtube.metadata';

const shared = { title: 'Кіт', description: 'На даху #кіт', tags: ['кіт', 'shorts', '#дах'] };

describe('per-platform post counters and limits', () => {
  it('counts characters as the platforms do: an emoji is one, a Cyrillic letter is one', () => {
    expect(charCount('🎬🎬')).toBe(2);
    expect(charCount('Привіт')).toBe(6);
  });

  it('counts hashtags as Instagram does: not inside a word or an &entity', () => {
    expect(hashtagCount('#один #два і#ні &#39; #три_3')).toBe(3);
    expect(hashtagCount('')).toBe(0);
    expect(hashtagCount('#кіт\n#пес')).toBe(2);
  });

  it('makes the same default captions as the drivers', () => {
    expect(defaultCaption('tiktok', shared)).toBe('Кіт\n\nНа даху #кіт\n\n#кіт #shorts #дах');
    // Instagram leaves out a tag already in the text.
    expect(defaultCaption('instagram', shared)).toBe('Кіт\n\nНа даху #кіт\n\n#shorts #дах');
    expect(tiktokCaption(shared)).toBe(defaultCaption('tiktok', shared));
    expect(buildInstagramCaption(shared)).toBe(defaultCaption('instagram', shared));
  });

  it('counters follow the platform’s own text, else the shared one, and say when a limit is passed', () => {
    const c = postCounters(undefined, shared);
    expect(c.youtube!.map((x) => [x.field, x.used, x.max])).toEqual([
      ['title', 3, 100],
      ['description', 12, 5000],
    ]);
    expect(c.instagram![1]).toMatchObject({ field: 'hashtags', used: 3, max: 30, over: false });
    const own = postCounters(
      {
        youtube: { title: 'я'.repeat(101) },
        instagram: { caption: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') },
        tiktok: { caption: 'x'.repeat(2200) },
      },
      shared,
    );
    expect(own.youtube![0]).toMatchObject({ used: 101, over: true });
    expect(own.instagram![1]).toMatchObject({ used: 31, over: true });
    expect(own.tiktok![0]).toMatchObject({ used: 2200, over: false });
  });

  it('the schema names the field and the limit', () => {
    const r = PlatformPostsSchema.safeParse({
      youtube: { title: 'a'.repeat(POST_LIMITS.youtubeTitle + 1) },
      instagram: { caption: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') },
    });
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map((i) => [i.path.join('.'), decodeMessage(i.message)]);
    expect(issues).toEqual([
      ['youtube.title', { key: 'kadr.platform_posts.errors.too_long', params: { max: 100 } }],
      ['instagram.caption', { key: 'kadr.platform_posts.errors.too_many_hashtags', params: { max: 30 } }],
    ]);
  });

  it('the form sends only what was set', () => {
    expect(
      cleanPosts({
        youtube: { title: '  ', privacy: 'public', categoryId: '', madeForKids: false },
        tiktok: { caption: '', privacyLevel: '' },
      }),
    ).toEqual({ youtube: { privacy: 'public', madeForKids: false } });
  });
});

describe('what the drivers send of a post', () => {
  const creator = {
    nickname: '',
    username: '',
    avatarUrl: '',
    privacyLevelOptions: ['PUBLIC_TO_EVERYONE'],
    commentDisabled: false,
    duetDisabled: true,
    stitchDisabled: false,
    maxVideoPostDurationSec: 600,
  };

  it('TikTok: switches as chosen unless the creator turned them off; AI label and promotion', () => {
    const meta = { ...shared, post: { allowComment: false, allowDuet: true, promotion: 'branded_content' as const } };
    expect(tiktokPostSwitches({ ...meta, aiMade: true }, creator)).toEqual({
      disable_comment: true,
      disable_duet: true,
      disable_stitch: false,
      is_aigc: true,
      brand_content_toggle: true,
      brand_organic_toggle: false,
    });
    expect(tiktokPostSwitches(shared, creator)).toMatchObject({ is_aigc: false, brand_content_toggle: false });
  });

  it('YouTube: own title and options; synthetic media follows the AI origin only', () => {
    const u = youtubeUpload({
      ...shared,
      aiMade: true,
      post: { title: 'Своя', privacy: 'private', madeForKids: true },
    });
    expect(u.meta.title).toBe('Своя');
    expect(u.meta.description).toBe(shared.description);
    expect(u.opts).toMatchObject({ privacyStatus: 'private', madeForKids: true, containsSyntheticMedia: true });
    expect(youtubeUpload(shared).opts).toMatchObject({ privacyStatus: 'public', containsSyntheticMedia: false });
  });
});

describe("a video's own texts per platform", () => {
  const publication = {
    youtube: { title: 'Спільна', privacy: 'unlisted' as const },
    tiktok: { caption: 'Спільний підпис', privacyLevel: 'SELF_ONLY' as const },
  };

  it('lay over the platform entry text by text, keeping its options; empty texts change nothing', () => {
    const own = { youtube: { title: '  ', description: 'Свій опис' }, tiktok: { caption: 'Свій' } };
    expect(withVideoText(publication.youtube, 'youtube', own)).toEqual({
      title: 'Спільна',
      privacy: 'unlisted',
      description: 'Свій опис',
    });
    expect(withVideoText(publication.tiktok, 'tiktok', own)).toEqual({ caption: 'Свій', privacyLevel: 'SELF_ONLY' });
    expect(withVideoText(undefined, 'instagram', own)).toBeUndefined();
    expect(withVideoText(undefined, 'instagram', { instagram: { caption: 'IG' } })).toEqual({ caption: 'IG' });
    expect(postsForVideo(publication, undefined)).toEqual(publication);
  });

  it('count what the video will send: its own text, else the publication’s, else its own fields', () => {
    const mine = { title: 'Моя назва', description: '', tags: ['a'] };
    const own = { tiktok: { caption: '🐈🐈' } };
    const c = postCounters(postsForVideo(publication, own), mine);
    expect(c.tiktok![0]!.used).toBe('🐈🐈'.length);
    expect(c.youtube![0]!.used).toBe('Спільна'.length);
    expect(c.instagram![0]!.used).toBe(defaultCaption('instagram', mine).length);
  });

  it('are stored with the empty ones left out, only the text fields, and read back', () => {
    const raw = storedVideoPosts({
      youtube: { title: '', description: '' },
      tiktok: { caption: 'Так' },
      instagram: { caption: ' ' },
    });
    expect(raw).toBe('{"tiktok":{"caption":"Так"}}');
    expect(storedVideoPosts({ youtube: { title: '' } })).toBeNull();
    expect(parseVideoPosts(raw)).toEqual({ tiktok: { caption: 'Так' } });
    expect(parseVideoPosts('{"tiktok":{"caption":"x","privacyLevel":"SELF_ONLY"}}')).toEqual({
      tiktok: { caption: 'x' },
    });
    expect(parseVideoPosts('not json')).toBeUndefined();
    expect(videoTextCount({ youtube: { title: 'a', description: 'b' }, tiktok: { caption: '' } })).toBe(2);
  });
});
