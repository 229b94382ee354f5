import * as z from 'zod/mini';
import { SelectOptionSchema } from './http';
import { PLATFORMS, SPEC_PLATFORMS, type SpecPlatform } from './platforms';

/**
 * How a profile is named wherever the panel shows one (issue 18 item 1): the operator's own name for it (the
 * `comments` field), its id, and its platform handles. A channel title alone does not tell profiles apart: three
 * profiles may well share one channel name, so the comment and the id come first.
 */

/** One connected platform as the profile shows it: the channel or display name, the @username, the avatar link. */
export const ProfileHandleSchema = z.object({
  platform: z.enum(PLATFORMS),
  name: z
    .nullable(z.string())
    .register(z.globalRegistry, { description: 'Channel title, TikTok display name or Instagram profile name' }),
  username: z.nullable(z.string()).register(z.globalRegistry, { description: "The platform's @handle, without the @" }),
  avatar: z
    .nullable(z.string())
    .register(z.globalRegistry, { description: "The platform's avatar link (the platform's own, may expire)" }),
});
export type ProfileHandle = z.infer<typeof ProfileHandleSchema>;

/** The fields every answer that names a profile carries besides its id. */
export const profileIdentityFields = {
  comments: z
    .nullable(z.string())
    .register(z.globalRegistry, { description: "The operator's own name for the profile" }),
  handles: z
    .array(ProfileHandleSchema)
    .register(z.globalRegistry, { description: 'Connected platforms, in YouTube, TikTok, Instagram order' }),
};

/**
 * A profile as a select option: SPEC §3 {id, title, value}, plus what names it and whether it fails (a picker marks
 * a failing profile, so that nobody publishes to a dead proxy unawares).
 */
export const AccountOptionSchema = z
  .extend(SelectOptionSchema, {
    ...profileIdentityFields,
    failing: z.boolean().register(z.globalRegistry, {
      description:
        "The profile's status is 'error': its own error, or an error of a platform it publishes to (a dead proxy, a lost grant)",
    }),
  })
  .check(
    z.meta({
      id: 'AccountOption',
      example: {
        id: 12,
        title: 'Кулінарія',
        value: 12,
        comments: 'Кухня, основний',
        handles: [{ platform: 'youtube', name: 'Кулінарія', username: 'kulinaria', avatar: null }],
        failing: false,
      },
    }),
  );
export type AccountOption = z.infer<typeof AccountOptionSchema>;
/** A profile chosen in a form: an option, or a saved publication's profile, whose answer does not say if it fails. */
export type ChosenProfile = Omit<AccountOption, 'failing'> & { failing?: boolean };

/** The stored columns a profile's handles are read from. */
export type ProfileHandleColumns = {
  titleChannel?: string | null;
  titleTikTok?: string | null;
  profileNameInstagram?: string | null;
  handleYouTube?: string | null;
  handleTikTok?: string | null;
  handleInstagram?: string | null;
  avatarYouTube?: string | null;
  avatarTikTok?: string | null;
  avatarInstagram?: string | null;
};

const clean = (v: string | null | undefined) => v?.trim() || null;
const COLUMNS: Record<
  SpecPlatform,
  [keyof ProfileHandleColumns, keyof ProfileHandleColumns, keyof ProfileHandleColumns]
> = {
  youtube: ['titleChannel', 'handleYouTube', 'avatarYouTube'],
  tiktok: ['titleTikTok', 'handleTikTok', 'avatarTikTok'],
  instagram: ['profileNameInstagram', 'handleInstagram', 'avatarInstagram'],
};

/** The platforms the profile has a name or a handle on (a platform never connected has neither). */
export function profileHandles(r: ProfileHandleColumns): ProfileHandle[] {
  return SPEC_PLATFORMS.flatMap((platform) => {
    const [name, username, avatar] = COLUMNS[platform].map((c) => clean(r[c]));
    return name || username ? [{ platform, name, username: username?.replace(/^@/, '') ?? null, avatar }] : [];
  });
}

/**
 * What names a profile, as the panel receives it (`title`: an older answer's name, used when no handles came;
 * `failing`: where the answer says so, the profile's status is 'error').
 */
export type ProfileIdentity = {
  id: number;
  comments?: string | null;
  handles?: ProfileHandle[];
  title?: string;
  failing?: boolean;
};

/** A handle in one piece of text: '@username' when known, else the name. */
export const handleText = (h: ProfileHandle) => (h.username ? `@${h.username}` : (h.name ?? ''));

/** YouTube is named by its channel title (its @handle is rarely what operators know it by), the others by @username. */
export const shownHandle = (h: ProfileHandle) => (h.platform === 'youtube' ? (h.name ?? handleText(h)) : handleText(h));

/**
 * A profile in one line of plain text (chips, an input's value, titles): 'Comment · #12 · Channel, @tiktok'.
 * The comment and the id are always there, so profiles of one channel name read differently. `idFirst`
 * ('#12 · Comment · …') for a chip that may be cut: what tells profiles apart stays in view.
 */
export function profileText(p: ProfileIdentity, idFirst = false): string {
  const handles = p.handles
    ? [...new Set(p.handles.map(shownHandle).filter(Boolean))].join(', ')
    : p.title && p.title !== `#${p.id}` && p.title !== p.comments
      ? p.title
      : '';
  const id = `#${p.id}`;
  return (idFirst ? [id, p.comments?.trim(), handles] : [p.comments?.trim(), id, handles]).filter(Boolean).join(' · ');
}
