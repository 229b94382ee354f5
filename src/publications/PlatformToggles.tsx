import { BooleanInput, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { FormHelperText, Stack } from '@mui/material';

/**
 * The YouTube, TikTok and Instagram toggles of the publish form and the publication detail, with the contract's
 * "at least one platform" error (it sits on inYouTube) shown under all three.
 */
export const PlatformToggles = () => (
  <>
    <Stack direction="row" flexWrap="wrap">
      <BooleanInput source="inYouTube" label="kadr.publishing.platforms.youtube" helperText={false} />
      <BooleanInput source="inTikTok" label="kadr.publishing.platforms.tiktok" helperText={false} />
      <BooleanInput source="inInstagram" label="kadr.publishing.platforms.instagram" helperText={false} />
    </Stack>
    <PlatformError />
  </>
);

/** The contract's "at least one platform" error (it sits on inYouTube), once the form was submitted. */
export const PlatformError = () => {
  const { errors, isSubmitted } = useFormState({ name: 'inYouTube' });
  const translate = useTranslate();
  const msg = errors.inYouTube?.message;
  return isSubmitted && typeof msg === 'string' ? (
    <FormHelperText error>{translate(msg, { _: msg })}</FormHelperText>
  ) : null;
};
