import { useState } from 'react';
import { InputAdornment, TextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useTranslate, type InputProps } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useStoredMessage } from '../common/useStoredMessage';
import { zoneLabel } from '../contract/time-zones';
import { parseInZone, showInZone } from '../slots/zonedInput';

/**
 * A date entered and shown in a named time zone as DD.MM.YYYY, HH:MM:SS (issue 21 item 2: a profile's dates in
 * the profile's zone, the zone named next to the field). The form value is the ISO instant (UTC); text that is
 * not a real date stays as typed, so the contract's date rule shows its message when the field is left.
 */
export const ZonedDateInput = ({ label, helperText, zone, ...props }: InputProps & { zone: string }) => {
  const translate = useTranslate();
  const { id, field, fieldState, formState, isRequired } = useInput(props);
  const { trigger } = useFormContext();
  const shown = useStoredMessage();
  const [text, setText] = useState(() => showInZone(field.value, zone) || String(field.value ?? ''));
  // A value or zone set from outside (the shared date copied in, the video's profile changed) shows in the field.
  const [seen, setSeen] = useState<[unknown, string]>([field.value, zone]);
  if (field.value !== seen[0] || zone !== seen[1]) {
    setSeen([field.value, zone]);
    if (typeof field.value === 'string' && showInZone(field.value, zone)) setText(showInZone(field.value, zone));
  }
  const showError = (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;
  // The zone's short name at the date entered (EET or EEST), else as of when the field appeared.
  const [shownAt] = useState(() => Date.now());
  const at = typeof field.value === 'string' ? Date.parse(field.value) || shownAt : shownAt;
  const named = zoneLabel(zone, at);
  return (
    <TextField
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const iso = parseInZone(e.target.value, zone);
        field.onChange(iso ?? e.target.value);
      }}
      onBlur={() => {
        const iso = parseInZone(text, zone);
        if (iso) setText(showInZone(iso, zone));
        field.onBlur();
        void trigger(field.name);
      }}
      label={label === false ? undefined : <FieldTitle label={label} source={props.source} isRequired={isRequired} />}
      placeholder={translate('kadr.publishing.date_placeholder')}
      error={showError}
      helperText={
        <InputHelperText
          error={showError ? shown(fieldState.error?.message) : undefined}
          helperText={helperText ?? translate('kadr.slots.date_in_zone', { zone: named })}
        />
      }
      fullWidth
      size="small"
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', autoComplete: 'off', 'data-zone': zone },
        input: { endAdornment: <InputAdornment position="end">{named}</InputAdornment> },
      }}
    />
  );
};
