import { Box, Button } from '@mui/material';
import { useLocaleState, useLocales, useTranslate } from 'ra-core';

/**
 * The sign-in page's language choice (issue 18): through react-admin's store, as the Settings page chooses it,
 * so it is remembered the same way and the panel opens in it.
 */
export const LanguageSwitch = () => {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const locales = useLocales();
  return (
    <Box
      role="group"
      aria-label={translate('kadr.settings.language')}
      sx={{ display: 'flex', justifyContent: 'center' }}
    >
      {locales.map((l) => (
        <Button
          key={l.locale}
          size="small"
          lang={l.locale}
          aria-pressed={l.locale === locale}
          color={l.locale === locale ? 'primary' : 'inherit'}
          onClick={() => setLocale(l.locale)}
        >
          {l.name}
        </Button>
      ))}
    </Box>
  );
};
