import { useState } from 'react';
import { Title, useDataProvider, useGetOne, useNotify, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { useDropzone, type FileRejection } from 'react-dropzone';
import {
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import SaveIcon from '@mui/icons-material/Save';
import { useDropRejections } from '../common/useDropRejections';
import { BM } from '../contract/backgrounds';
import type { KadrDataProvider } from '../providers/dataProvider';
import { UploadError, type UploadProgress } from '../providers/uploadWithProgress';

type Kind = 'photo' | 'video';

/**
 * /photos/create/{id}: the folder it uploads to, a photo zone (images only) and a video zone (videos only), pending
 * files with a remove button, Save (once a file is picked) with a progress bar of bytes sent; 'Зображення
 * завантажено', then /photos/{id}.
 */
export const UploadPage = () => {
  const { id } = useParams<{ id: string }>();
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [photos, setPhotos] = useState<File[]>([]);
  const [videos, setVideos] = useState<File[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const busy = progress !== null;

  const photoRejected = useDropRejections('photo');
  const videoRejected = useDropRejections('video');

  const { data: folder } = useGetOne('photos', { id: id! });
  const picked = photos.length + videos.length > 0;

  const save = async () => {
    setProgress({ loaded: 0, total: 0 });
    try {
      await dataProvider.uploadBackgrounds(id!, photos, videos, setProgress);
      notify('kadr.backgrounds.uploaded', { type: 'success' });
      navigate(`/photos/${id}`);
    } catch (e) {
      const body = e instanceof UploadError ? e.body : undefined;
      const perFile = Object.entries(body?.errors ?? {}).map(([field, message]) => {
        const [name, index] = field.split('.');
        const file = index === undefined ? undefined : (name === 'videos' ? videos : photos)[Number(index)];
        return file ? translate('kadr.backgrounds.rejected', { name: file.name, reason: message }) : message;
      });
      const messages = perFile.length ? perFile : [body?.message ?? translate('kadr.backgrounds.errors.upload_failed')];
      for (const m of messages) notify(m, { type: 'error' });
      setProgress(null);
    }
  };

  const percent = progress && progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <Box sx={{ mt: 1 }}>
      {/* The section's name in the reader's language ('Background', SPEC's title, is the folder list's). */}
      <Title title={translate('kadr.menu.background')} />
      <Typography variant="h6" component="h2" sx={{ mb: 1, overflowWrap: 'anywhere' }} data-testid="upload-folder">
        {folder?.name ? translate('kadr.backgrounds.upload_to', { name: folder.name }) : '\u00a0'}
      </Typography>
      <Card>
        <CardContent sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Zone
            kind="photo"
            accept={{ 'image/*': [] }}
            files={photos}
            setFiles={setPhotos}
            onRejected={photoRejected}
            disabled={busy}
          />
          <Zone
            kind="video"
            accept={{ 'video/*': [] }}
            files={videos}
            setFiles={setVideos}
            onRejected={videoRejected}
            disabled={busy}
          />
        </CardContent>
        <CardContent>
          {progress && (
            <Box sx={{ mb: 2 }}>
              <LinearProgress
                variant={progress.total ? 'determinate' : 'indeterminate'}
                value={percent}
                aria-label={translate('kadr.backgrounds.uploading', { percent })}
              />
              <Typography variant="caption">
                {translate('kadr.backgrounds.uploading', { percent })} ({mb(progress.loaded)} / {mb(progress.total)} MB)
              </Typography>
            </Box>
          )}
          {/* Nothing to save until a file is picked: the button says so instead of failing. */}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Button variant="contained" startIcon={<SaveIcon />} onClick={save} disabled={busy || !picked}>
              {translate('kadr.common.save')}
            </Button>
            {!picked && (
              <Typography variant="body2" color="text.secondary" data-testid="upload-hint">
                {translate(BM.atLeastOneFile)}
              </Typography>
            )}
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};

const mb = (n: number) => (n / 1048576).toFixed(1);

type ZoneProps = {
  kind: Kind;
  accept: Record<string, string[]>;
  files: File[];
  setFiles: (f: (prev: File[]) => File[]) => void;
  onRejected: (r: FileRejection[]) => void;
  disabled: boolean;
};

const Zone = ({ kind, accept, files, setFiles, onRejected, disabled }: ZoneProps) => {
  const translate = useTranslate();
  const label = translate(kind === 'photo' ? 'kadr.backgrounds.photos_zone' : 'kadr.backgrounds.videos_zone');
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept,
    disabled,
    multiple: true,
    onDropAccepted: (accepted) => setFiles((prev) => [...prev, ...accepted]),
    onDropRejected: onRejected,
  });
  return (
    <Box>
      <Box
        {...getRootProps()}
        sx={{
          border: '2px dashed',
          borderColor: isDragActive ? 'primary.main' : 'grey.400',
          borderRadius: 1,
          p: 3,
          textAlign: 'center',
          cursor: disabled ? 'default' : 'pointer',
          bgcolor: isDragActive ? 'action.hover' : undefined,
        }}
      >
        <input {...getInputProps()} aria-label={label} data-zone={kind} />
        <Typography>{label}</Typography>
      </Box>
      <List dense aria-label={label}>
        {files.map((f, i) => (
          <ListItem
            key={`${f.name}-${i}`}
            secondaryAction={
              <IconButton
                edge="end"
                disabled={disabled}
                aria-label={`${translate('kadr.backgrounds.pending_remove')}: ${f.name}`}
                onClick={() => setFiles((prev) => prev.filter((_, j) => j !== i))}
              >
                <CloseIcon />
              </IconButton>
            }
          >
            <ListItemText primary={f.name} secondary={`${mb(f.size)} MB`} />
          </ListItem>
        ))}
      </List>
    </Box>
  );
};
