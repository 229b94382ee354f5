import type { HTMLAttributes, Key, ReactNode } from 'react';
import { Avatar, Box, type Theme } from '@mui/material';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import { useTranslate } from 'react-admin';
import { PLATFORM_LOOKS, PLATFORM_TITLES } from '../contract/platforms';
import { FIT_CELL } from '../common/OneLine';
import { profileText, shownHandle, type ProfileHandle, type ProfileIdentity } from '../contract/profile-identity';

type Width = number | string | Partial<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl', number | string>>;

/** A platform's disc; in the dark theme ringed, so TikTok's near-black one still shows on the dark page. */
const AVATAR = {
  width: 16,
  height: 16,
  fontSize: 10,
  flex: 'none',
  boxShadow: (t: Theme) => (t.palette.mode === 'dark' ? `0 0 0 1px ${t.palette.text.secondary}` : 'none'),
} as const;

const cut = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/**
 * The operator's name for a profile on up to two lines: on a phone 'Олена — тестовий профіль' and 'Олена —
 * основний профіль…' differ after the first words, which one cut line would hide.
 */
const twoLines = {
  overflow: 'hidden',
  display: '-webkit-box',
  WebkitBoxOrient: 'vertical',
  WebkitLineClamp: 2,
  overflowWrap: 'anywhere',
  minWidth: 0,
} as const;

/** One platform: its avatar (the platform's initial when there is none, or it fails to load) and its handle. */
const Handle = ({ h }: { h: ProfileHandle }) => {
  const text = shownHandle(h);
  return (
    <Box
      component="span"
      title={`${PLATFORM_TITLES[h.platform]}: ${[h.name, h.username && `@${h.username}`].filter(Boolean).join(' · ')}`}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, minWidth: 0, maxWidth: '100%' }}
      data-platform={h.platform}
    >
      {h.avatar ? (
        <Avatar
          src={h.avatar}
          alt=""
          imgProps={{ referrerPolicy: 'no-referrer', loading: 'lazy' }}
          sx={{ ...AVATAR, bgcolor: PLATFORM_LOOKS[h.platform].avatarColor }}
        />
      ) : (
        // No avatar: the platform's initial, drawn by CSS so that it is not part of the name's text.
        <Box
          component="span"
          aria-hidden
          sx={{
            ...AVATAR,
            borderRadius: '50%',
            bgcolor: PLATFORM_LOOKS[h.platform].avatarColor,
            color: '#fff',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            '&::before': { content: `"${PLATFORM_TITLES[h.platform][0]}"` },
          }}
        />
      )}
      <Box component="span" sx={cut}>
        {text}
      </Box>
    </Box>
  );
};

/** 'Не працює' beside a failing profile's id (a picker's option), so that nobody publishes to a dead proxy unawares. */
const FailingMark = () => {
  const translate = useTranslate();
  return (
    <Box
      component="span"
      data-failing
      title={translate('kadr.accounts.failing_mark_hint')}
      sx={{
        color: 'error.main',
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.25,
        flex: 'none',
        alignSelf: 'center',
      }}
    >
      <ErrorOutline sx={{ fontSize: 16 }} aria-hidden />
      {translate('kadr.accounts.failing_mark')}
    </Box>
  );
};

/**
 * How the panel names a profile everywhere (issue 18 item 1): the operator's name for it (the comment, on up to
 * two lines) and its id, then its platforms' avatars and handles on a line of their own. Three profiles of one
 * channel name read differently by their comments and ids. A profile the answer says is failing is marked so. Each
 * part is cut with an ellipsis (the whole text on hover), so a long name never widens a table or a menu on a phone.
 */
export const ProfileName = ({
  profile,
  maxWidth,
  dense = false,
}: {
  profile: ProfileIdentity | null | undefined;
  maxWidth?: Width;
  /** One line only (the handles after the id), for tight rows. */
  dense?: boolean;
}) => {
  if (!profile) return null;
  const comment = profile.comments?.trim();
  const handles = profile.handles ?? [];
  const id = (
    <Box component="span" sx={{ color: 'text.secondary', flex: 'none' }}>
      #{profile.id}
    </Box>
  );
  const handleRow: ReactNode = handles.length ? (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, ...cut }}>
      {handles.map((h) => (
        <Handle key={h.platform} h={h} />
      ))}
    </Box>
  ) : null;
  return (
    <Box
      component="span"
      data-testid="profile-name"
      data-profile-id={profile.id}
      title={profileText(profile)}
      // Stacked: a grid that fits its column (see FIT_CELL); dense: one flex row.
      sx={{ ...(dense ? { display: 'flex', gap: 1 } : { ...FIT_CELL, rowGap: 0.25 }), maxWidth, minWidth: 0 }}
    >
      <Box component="span" sx={{ display: 'flex', gap: 0.75, minWidth: 0, alignItems: 'baseline' }}>
        {comment && (
          <Box component="span" sx={{ ...(dense ? cut : twoLines), fontWeight: 500 }}>
            {comment}
          </Box>
        )}
        {id}
        {profile.failing && <FailingMark />}
      </Box>
      {handleRow && (
        <Box component="span" sx={{ fontSize: '0.8125rem', color: 'text.secondary', minWidth: 0, display: 'flex' }}>
          {handleRow}
        </Box>
      )}
    </Box>
  );
};

/** An autocomplete's option as a profile (the one renderer of every profile picker). */
export const renderProfileOption = <T extends ProfileIdentity>(
  { key, ...props }: HTMLAttributes<HTMLLIElement> & { key: Key },
  option: T,
) => (
  <li key={key} {...props}>
    <ProfileName profile={option} maxWidth="100%" />
  </li>
);
