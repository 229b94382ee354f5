import { useCallback, type ReactNode } from 'react';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';

/**
 * MUI's own words (an Autocomplete's 'Open' / 'Clear' / 'No options', an Alert's 'Close') in the panel's
 * language: without this they stay English in the Ukrainian panel, as tooltips and accessible names. It sits
 * inside react-admin's i18n context, so a language switch re-renders it with the rest.
 */
export const MuiTexts = ({ children }: { children: ReactNode }) => {
  const translate = useTranslate();
  // Made again only when the language changes, so a navigation does not restyle the whole tree.
  const withTexts = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiAutocomplete: {
          ...outer.components?.MuiAutocomplete,
          defaultProps: {
            ...outer.components?.MuiAutocomplete?.defaultProps,
            openText: translate('kadr.look.open'),
            closeText: translate('kadr.look.close'),
            clearText: translate('kadr.look.clear'),
            noOptionsText: translate('kadr.common.not_found_option'),
            loadingText: translate('kadr.common.loading'),
          },
        },
        MuiAlert: {
          ...outer.components?.MuiAlert,
          defaultProps: { ...outer.components?.MuiAlert?.defaultProps, closeText: translate('kadr.look.close') },
        },
      },
    }),
    [translate],
  );
  return <ThemeProvider theme={withTexts}>{children}</ThemeProvider>;
};
