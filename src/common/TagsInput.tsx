import { useState, type KeyboardEvent } from 'react';
import { Box, Chip, TextField, type SxProps } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useTranslate, type InputProps } from 'react-admin';
import { addTags } from '../contract/tags';

export type TagsInputProps = Omit<InputProps, 'source'> & {
  source: string;
  placeholder?: string;
  fullWidth?: boolean;
  sx?: SxProps;
};

/**
 * A react-admin input for a list of tags shown as chips (SPEC §4): what is typed becomes tags when Enter
 * or Space is pressed (and when the field loses focus), lowercased, trimmed and de-duplicated by the same
 * `addTags`/`normalizeTags` the server applies. Backspace in an empty field removes the last chip; each
 * chip has its own remove button. The value is a `string[]`.
 */
export const TagsInput = ({ label, helperText, placeholder, fullWidth = true, sx, ...props }: TagsInputProps) => {
  const translate = useTranslate();
  const { id, field, fieldState, formState, isRequired } = useInput({ defaultValue: [], ...props });
  const [text, setText] = useState('');
  const tags: string[] = Array.isArray(field.value) ? field.value : [];
  const showError = (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;

  const commit = (typed: string) => {
    setText('');
    const next = addTags(tags, typed);
    if (next.length !== tags.length || next.some((t, i) => t !== tags[i])) field.onChange(next);
  };
  const remove = (tag: string) => field.onChange(tags.filter((t) => t !== tag));

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'Enter' || e.key === ' ') {
      if (e.key === ' ' || text.trim()) e.preventDefault();
      if (text.trim()) commit(text);
      else if (e.key === ' ') setText('');
    } else if (e.key === 'Backspace' && !text && tags.length) {
      remove(tags[tags.length - 1]!);
    }
  };

  return (
    <TextField
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => {
        if (text.trim()) commit(text);
        field.onBlur();
      }}
      label={
        label === false ? undefined : (
          <FieldTitle label={label} source={props.source} resource={props.resource} isRequired={isRequired} />
        )
      }
      placeholder={placeholder ?? translate('kadr.tags.input_hint')}
      error={showError}
      helperText={<InputHelperText error={showError ? fieldState.error?.message : undefined} helperText={helperText} />}
      fullWidth={fullWidth}
      sx={[
        {
          // The chips start below the shrunk label (the filled field's own top padding), not over it; the typing
          // room is wide enough for the whole hint, or takes a line of its own under the chips.
          '& .MuiInputBase-root': { flexWrap: 'wrap', gap: 0.5, pt: 3, pb: 1 },
          '& .MuiInputBase-input': { minWidth: 'min(100%, 16rem)', flex: 1, py: 0.5 },
        },
        ...(Array.isArray(sx) ? sx : sx ? [sx] : []),
      ]}
      slotProps={{
        inputLabel: { shrink: true },
        input: {
          startAdornment: tags.length ? (
            <Box
              component="ul"
              aria-label={typeof label === 'string' ? translate(label) : undefined}
              sx={{ display: 'contents', listStyle: 'none', p: 0, m: 0 }}
            >
              {tags.map((tag) => (
                <Box component="li" key={tag} sx={{ display: 'inline-flex' }}>
                  <Chip
                    size="small"
                    label={tag}
                    onDelete={() => remove(tag)}
                    title={translate('kadr.tags.remove_tag', { tag })}
                  />
                </Box>
              ))}
            </Box>
          ) : undefined,
        },
      }}
    />
  );
};
