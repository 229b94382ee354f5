import { useMemo } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useTranslate, type InputProps } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { SelectOption } from '../contract/groups';
import { SELECT_MENU_MAX_HEIGHT } from '../groups/AccountsSelectInput';
import { profileText } from '../contract/profile-identity';
import { renderProfileOption } from '../accounts/ProfileName';
import { useAccountOptions } from './options';

/**
 * One video's profile: the caller's profiles (plus those chosen in the form's profile select, so a group's
 * members show even past the search limit). The form value is the profile id (or null).
 */
export const AccountPicker = ({ label, ...props }: InputProps) => {
  const translate = useTranslate();
  const { id, field, fieldState, formState, isRequired } = useInput({ defaultValue: null, ...props });
  const { data: found = [], isFetching } = useAccountOptions();
  const chosen = useWatch({ name: 'accounts' }) as SelectOption[] | undefined;
  const options = useMemo(() => {
    const byId = new Map<number, SelectOption>();
    for (const o of [...(chosen ?? []), ...found]) byId.set(Number(o.value), o);
    return [...byId.values()];
  }, [chosen, found]);
  const value = options.find((o) => Number(o.value) === field.value) ?? null;
  const showError = (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;
  return (
    <Autocomplete
      id={id}
      size="small"
      fullWidth
      options={options}
      value={value}
      loading={isFetching}
      getOptionLabel={(o) => profileText(o)}
      renderOption={renderProfileOption}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_, next) => field.onChange(next ? Number(next.value) : null)}
      onBlur={field.onBlur}
      noOptionsText={translate('kadr.common.not_found_option')}
      loadingText={translate('kadr.common.loading')}
      slotProps={{ listbox: { style: { maxHeight: SELECT_MENU_MAX_HEIGHT } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={field.ref}
          name={field.name}
          label={
            label === false ? undefined : <FieldTitle label={label} source={props.source} isRequired={isRequired} />
          }
          error={showError}
          helperText={<InputHelperText error={showError ? fieldState.error?.message : undefined} />}
        />
      )}
    />
  );
};
