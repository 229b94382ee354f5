import { useMemo } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  FormHelperText,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemText,
  TextField,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { useQuery } from '@tanstack/react-query';
import { useDropzone } from 'react-dropzone';
import { Link as RouterLink } from 'react-router-dom';
import { FieldTitle, useDataProvider, useInput, useTranslate, type InputProps } from 'react-admin';
import type { KadrDataProvider } from '../providers/dataProvider';
import { VideoThumbnail } from './VideoThumbnail';
import { useDropRejections } from '../common/useDropRejections';

/** SPEC §9 select menus: at most 300 px tall, empty option 'Не знайдено'. */
const SELECT_MENU_MAX_HEIGHT = 300;

const showErrorOf = (fieldState: { isTouched: boolean; invalid: boolean }, formState: { isSubmitted: boolean }) =>
  (fieldState.isTouched || formState.isSubmitted) && fieldState.invalid;

/** Background folders multi-select (the folders as select options): the form value is a list of folder ids. */
export const FoldersSelectInput = ({ label, ...props }: InputProps) => {
  const translate = useTranslate();
  const { id, field, fieldState, formState, isRequired } = useInput({ defaultValue: [], ...props });
  const dataProvider = useDataProvider<KadrDataProvider>();
  const { data: options = [], isFetching } = useQuery({
    queryKey: ['folder/photo-bg/select'],
    queryFn: ({ signal }) => dataProvider.folderOptions(signal),
  });
  const value = useMemo(() => {
    const ids: number[] = Array.isArray(field.value) ? field.value : [];
    return ids.map((v) => options.find((o) => o.value === v) ?? { id: v, value: v, title: `#${v}` });
  }, [field.value, options]);
  const showError = showErrorOf(fieldState, formState);
  // No folder yet (a new operator): where to make one, since one is required.
  const none = !isFetching && options.length === 0;
  const hint = none ? (
    <span data-testid="no-folders">
      {translate('kadr.videos.no_folders')}{' '}
      <Link component={RouterLink} to="/photos/create-folder">
        {translate('kadr.videos.create_folder_link')}
      </Link>
    </span>
  ) : null;
  const error = showError ? translate(fieldState.error?.message ?? '', { _: fieldState.error?.message }) : null;
  return (
    <Autocomplete
      id={id}
      multiple
      fullWidth
      options={options}
      value={value}
      loading={isFetching}
      filterSelectedOptions
      getOptionLabel={(o) => o.title}
      getOptionKey={(o) => o.id}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      onChange={(_, next) => field.onChange(next.map((o) => o.value))}
      onBlur={field.onBlur}
      noOptionsText={translate('kadr.common.not_found_option')}
      loadingText={translate('kadr.common.loading')}
      slotProps={{ listbox: { style: { maxHeight: SELECT_MENU_MAX_HEIGHT } } }}
      renderValue={(selected, getItemProps) =>
        selected.map((o, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={o.title} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={field.ref}
          name={field.name}
          label={<FieldTitle label={label} source={props.source} isRequired={isRequired} />}
          error={showError}
          helperText={
            error && hint ? (
              <>
                {error}. {hint}
              </>
            ) : (
              (error ?? hint ?? ' ')
            )
          }
        />
      )}
    />
  );
};

/**
 * The clip: drag-and-drop or the button (react-dropzone), each picked file with its thumbnail (frame at
 * 0.1 s) and a delete. A file of another kind (a JPEG) is refused with the SPEC §5 toast 'Файл "{name}" має
 * недопустимий формат. Файл має бути відео'; a second clip is taken so that 'Максимум одне відео' tells what
 * is wrong instead of a silent refusal.
 */
export const VideoDropInput = ({ disabled, ...props }: InputProps & { disabled?: boolean }) => {
  const translate = useTranslate();
  const { field, fieldState, formState } = useInput({ defaultValue: [], ...props });
  const files: File[] = Array.isArray(field.value) ? field.value : [];
  const onDropRejected = useDropRejections('video');
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    disabled,
    accept: { 'video/*': [] },
    multiple: true,
    noClick: true,
    onDrop: (accepted) => {
      if (!accepted.length) return;
      field.onChange([...files, ...accepted]);
      field.onBlur();
    },
    onDropRejected,
  });
  const showError = showErrorOf({ ...fieldState, isTouched: fieldState.isTouched || files.length > 0 }, formState);
  return (
    <Box sx={{ width: '100%' }}>
      <Box
        {...getRootProps()}
        sx={{
          border: '2px dashed',
          borderColor: showError ? 'error.main' : isDragActive ? 'primary.main' : 'grey.400',
          borderRadius: 1,
          p: 3,
          textAlign: 'center',
          bgcolor: isDragActive ? 'action.hover' : undefined,
        }}
      >
        <input {...getInputProps()} aria-label={translate('kadr.videos.drop_zone')} data-testid="create-video-file" />
        <Box sx={{ mb: 1 }}>{translate('kadr.videos.drop_zone')}</Box>
        <Button variant="outlined" onClick={open} disabled={disabled}>
          {translate('kadr.videos.choose_file')}
        </Button>
      </Box>
      <List dense>
        {files.map((f, i) => (
          <ListItem
            key={`${f.name}-${i}`}
            secondaryAction={
              <IconButton
                edge="end"
                disabled={disabled}
                aria-label={translate('kadr.videos.remove_file', { name: f.name })}
                onClick={() => field.onChange(files.filter((_, j) => j !== i))}
              >
                <DeleteIcon />
              </IconButton>
            }
          >
            <Box sx={{ mr: 2 }}>
              <VideoThumbnail file={f} />
            </Box>
            <ListItemText primary={f.name} secondary={`${(f.size / 1048576).toFixed(1)} MB`} />
          </ListItem>
        ))}
      </List>
      {showError && (
        <FormHelperText error>
          {translate(fieldState.error?.message ?? '', { _: fieldState.error?.message })}
        </FormHelperText>
      )}
    </Box>
  );
};
