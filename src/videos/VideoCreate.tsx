import { useState } from 'react';
import {
  BooleanInput,
  NumberInput,
  SaveButton,
  SimpleForm,
  Title,
  Toolbar,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Box, Card, LinearProgress, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { CREATE_VIDEO_DEFAULTS, CreateVideoFieldsSchema, CreateVideoFormSchema } from '../contract/videos';
import type { KadrDataProvider } from '../providers/dataProvider';
import { UploadError, type UploadProgress } from '../providers/uploadWithProgress';
import { FoldersSelectInput, VideoDropInput } from './CreateVideoInputs';

const defaults = { ...CREATE_VIDEO_DEFAULTS, folders: [], files: [] };

/**
 * /video/create: count (default 1), background video / background picture / uniqueness generator toggles
 * (false, false, true), background folders, exactly one clip; Create uploads with a progress bar, then
 * 'Запит на створення відео надіслано' and the request list.
 */
export const VideoCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  const save = async (values: Record<string, unknown>) => {
    const opts = CreateVideoFieldsSchema.parse(values);
    const file = (values.files as File[])[0]!;
    setProgress({ loaded: 0, total: file.size });
    try {
      await dataProvider.createVideoRequest(opts, file, setProgress);
      notify('kadr.videos.create_request_sent', { type: 'success' });
      navigate('/video/request-create');
      return undefined;
    } catch (e) {
      setProgress(null);
      const body = e instanceof UploadError ? e.body : undefined;
      const errors = Object.fromEntries(
        Object.entries(body?.errors ?? {}).map(([k, v]) => [k === 'file' ? 'files' : k, v]),
      );
      for (const m of Object.keys(errors).length
        ? Object.values(errors)
        : [body?.message ?? translate('kadr.notifications.error')])
        notify(m, { type: 'error' });
      return errors;
    }
  };

  const percent = progress?.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <Box sx={{ mt: 1, maxWidth: 720 }}>
      <Title title={translate('kadr.videos.create_title')} />
      <Card>
        <SimpleForm
          defaultValues={defaults}
          resolver={zodResolver(CreateVideoFormSchema)}
          onSubmit={save}
          toolbar={
            <Toolbar>
              <Box sx={{ flex: 1 }}>
                {progress && (
                  <Box sx={{ mb: 1 }}>
                    <LinearProgress
                      variant={progress.total ? 'determinate' : 'indeterminate'}
                      value={percent}
                      aria-label={translate('kadr.videos.uploading', { percent })}
                    />
                    <Typography variant="caption">{translate('kadr.videos.uploading', { percent })}</Typography>
                  </Box>
                )}
                <SaveButton label="kadr.common.create" alwaysEnable={!progress} disabled={!!progress} />
              </Box>
            </Toolbar>
          }
        >
          <NumberInput source="countVideo" label="kadr.videos.count" min={1} max={50} step={1} />
          <BooleanInput source="isVideo" label="kadr.videos.is_video" />
          <BooleanInput source="isPhoto" label="kadr.videos.is_photo" />
          <BooleanInput source="isGenerator" label="kadr.videos.is_generator" />
          <FoldersSelectInput source="folders" label="kadr.videos.folders" />
          <VideoDropInput source="files" label={false} disabled={!!progress} />
        </SimpleForm>
      </Card>
    </Box>
  );
};
