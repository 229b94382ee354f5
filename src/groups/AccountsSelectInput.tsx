import { useEffect, useMemo, useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import { useQuery } from '@tanstack/react-query';
import {
  FieldTitle,
  InputHelperText,
  useDataProvider,
  useInput,
  useRecordContext,
  useTranslate,
  type InputProps,
} from 'react-admin';
import type { AccountOption } from '../contract/profile-identity';
import { profileText } from '../contract/profile-identity';
import { renderProfileOption } from '../accounts/ProfileName';
import type { KadrDataProvider } from '../providers/dataProvider';

/** SPEC §9 select menus: at most 300 px tall, empty option 'Не знайдено'. */
export const SELECT_MENU_MAX_HEIGHT = 300;

type SelectOption = AccountOption | { id: number; title: string; value: number };

const asOption = (v: unknown): SelectOption | null => {
  if (v && typeof v === 'object' && 'value' in v) return v as SelectOption;
  if (typeof v === 'number') return { id: v, value: v, title: `#${v}` };
  return null;
};

/**
 * The group form's multi-select of profiles. Options are the profile search of the group (groupId 0 for a new
 * group) and narrow as the user types (`q`, debounced). The form value is a list of select
 * options {id, title, value}, as the group detail returns them; the contract schema reduces it to ids.
 */
export const AccountsSelectInput = ({ label, helperText, ...props }: InputProps) => {
  const translate = useTranslate();
  const record = useRecordContext();
  const groupId = record?.id ?? 0;
  const { id, field, fieldState, formState, isRequired } = useInput({ defaultValue: [], ...props });
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);

  const { data: options = [], isFetching } = useQuery<SelectOption[]>({
    queryKey: ['accounts/search', groupId, q],
    queryFn: ({ signal }) => dataProvider.searchProfiles({ groupId, q }, signal),
    placeholderData: (prev) => prev,
  });

  const value = useMemo(
    () => (Array.isArray(field.value) ? field.value.map(asOption).filter((o): o is SelectOption => !!o) : []),
    [field.value],
  );
  const showError = (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;

  return (
    <Autocomplete
      id={id}
      multiple
      fullWidth
      options={options}
      value={value}
      loading={isFetching}
      filterOptions={(x) => x}
      filterSelectedOptions
      getOptionLabel={(o) => profileText(o)}
      renderOption={renderProfileOption}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_, next) => field.onChange(next)}
      onBlur={field.onBlur}
      inputValue={typed}
      onInputChange={(_, v, reason) => {
        if (reason !== 'reset') setTyped(v);
      }}
      noOptionsText={translate('kadr.common.not_found_option')}
      loadingText={translate('kadr.common.loading')}
      slotProps={{ listbox: { style: { maxHeight: SELECT_MENU_MAX_HEIGHT } } }}
      renderValue={(selected, getItemProps) =>
        selected.map((o, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          // The id first: a chip cut on a phone still tells its profile apart; the whole name on hover.
          // A failing profile's chip is red with the error mark, as its option is marked (accounts/ProfileName.tsx).
          const failing = 'failing' in o && o.failing;
          const name = profileText(o);
          return (
            <Chip
              key={key}
              size="small"
              color={failing ? 'error' : 'default'}
              variant={failing ? 'outlined' : 'filled'}
              data-failing={failing || undefined}
              icon={failing ? <ErrorOutline /> : undefined}
              label={profileText(o, true)}
              title={failing ? `${name} · ${translate('kadr.accounts.failing_mark')}` : name}
              {...itemProps}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={field.ref}
          name={field.name}
          label={
            label === false ? undefined : (
              <FieldTitle label={label} source={props.source} resource={props.resource} isRequired={isRequired} />
            )
          }
          error={showError}
          // The hint is helper text, not a placeholder: it wraps in a narrow column or on a phone instead of being cut.
          helperText={
            <InputHelperText
              error={showError ? fieldState.error?.message : undefined}
              helperText={helperText ?? (value.length ? undefined : 'kadr.groups.accounts_hint')}
            />
          }
        />
      )}
    />
  );
};
