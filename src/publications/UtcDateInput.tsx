import { useState } from 'react';
import { TextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useTranslate, type InputProps } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { useStoredMessage } from '../common/useStoredMessage';
import { parseUtc, showUtc } from './utcInput';

/**
 * A date entered and shown in UTC as DD.MM.YYYY, HH:MM:SS (SPEC §9). The form value is an ISO instant; text
 * that is not a real date stays in the form as typed, so the contract's date rule shows its message. The rule
 * (the years 2000–2100, the scheduling horizon) is checked when the field is left, before any save; its
 * messages carry their bounds (stored messages, src/contract/stored-message.ts).
 */
export const UtcDateInput = ({
  label,
  helperText,
  onValue,
  ...props
}: InputProps & { onValue?: (iso: string) => void }) => {
  const translate = useTranslate();
  const { id, field, fieldState, formState, isRequired } = useInput(props);
  const { trigger } = useFormContext();
  const shown = useStoredMessage();
  const [text, setText] = useState(() => showUtc(field.value) || String(field.value ?? ''));
  // A value set from outside (the shared date copied into each video) shows in the field (adjusted while
  // rendering, React's pattern for state that follows a prop).
  const [seen, setSeen] = useState<unknown>(field.value);
  if (field.value !== seen) {
    setSeen(field.value);
    if (typeof field.value === 'string' && parseUtc(text) !== field.value && showUtc(field.value))
      setText(showUtc(field.value));
  }
  const showError = (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;
  const change = (typed: string) => {
    setText(typed);
    const iso = parseUtc(typed);
    field.onChange(iso ?? typed);
    if (iso) onValue?.(iso);
  };
  return (
    <TextField
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={text}
      onChange={(e) => change(e.target.value)}
      onBlur={() => {
        const iso = parseUtc(text);
        if (iso) setText(showUtc(iso));
        field.onBlur();
        void trigger(field.name);
      }}
      label={label === false ? undefined : <FieldTitle label={label} source={props.source} isRequired={isRequired} />}
      placeholder={translate('kadr.publishing.date_placeholder')}
      error={showError}
      helperText={
        <InputHelperText
          error={showError ? shown(fieldState.error?.message) : undefined}
          helperText={helperText ?? 'kadr.publishing.date_hint'}
        />
      }
      fullWidth
      size="small"
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
    />
  );
};
