import { useMemo } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { InputHelperText, useInput, useTranslate } from 'react-admin';
import { useStoredMessage } from '../common/useStoredMessage';
import { zoneChoices } from './operatorZone';

/**
 * The profile's time zone (issue 21 item 2): every IANA zone the browser knows (Intl.supportedValuesOf), typed
 * to filter. Its dates are shown and entered in this zone.
 */
export const TimeZoneInput = ({ source = 'timeZone', label }: { source?: string; label: string }) => {
  const translate = useTranslate();
  const shown = useStoredMessage();
  const { id, field, fieldState } = useInput({ source });
  const options = useMemo(() => zoneChoices(), []);
  const value = typeof field.value === 'string' && field.value ? field.value : null;
  return (
    <Autocomplete
      id={id}
      size="small"
      options={options}
      value={value}
      onChange={(_, next) => field.onChange(next ?? null)}
      onBlur={field.onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          label={translate(label)}
          error={fieldState.invalid}
          helperText={
            <InputHelperText
              error={fieldState.invalid ? shown(fieldState.error?.message) : undefined}
              helperText="kadr.slots.zone_hint"
            />
          }
          inputProps={{ ...params.inputProps, 'data-field': 'timeZone' }}
        />
      )}
    />
  );
};
