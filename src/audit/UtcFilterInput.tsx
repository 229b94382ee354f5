import { useState } from 'react';
import { TextField } from '@mui/material';
import { FieldTitle, useInput, useTranslate } from 'react-admin';
import { parseUtc, showUtc } from '../publications/utcInput';

/**
 * An audit filter's instant, typed and shown as the panel writes dates (SPEC §9: DD.MM.YYYY, HH:MM[:SS], UTC), not
 * in the browser's own format. The filter takes the instant once the text is a real date, and drops it when the
 * field is cleared; a half-typed date leaves the filter as it was and marks the field.
 */
export const UtcFilterInput = ({ source, label }: { source: string; label: string; alwaysOn?: boolean }) => {
  const translate = useTranslate();
  const { id, field } = useInput({ source });
  const [text, setText] = useState(() => showUtc(field.value));
  const iso = parseUtc(text);
  const wrong = text.trim() !== '' && !iso;
  return (
    <TextField
      id={id}
      name={field.name}
      value={text}
      onChange={(e) => {
        const typed = e.target.value;
        setText(typed);
        const at = parseUtc(typed);
        if (at) field.onChange(at);
        else if (!typed.trim()) field.onChange('');
      }}
      onBlur={() => {
        if (iso) setText(showUtc(iso));
        field.onBlur();
      }}
      label={<FieldTitle label={label} source={source} />}
      placeholder={translate('kadr.audit.filters.date_placeholder')}
      error={wrong}
      variant="filled"
      size="small"
      sx={{ width: 190 }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
      data-filter={source}
    />
  );
};
