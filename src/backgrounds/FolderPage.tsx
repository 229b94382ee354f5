import { useState } from 'react';
import {
  Button,
  Confirm,
  ListBase,
  Title,
  useDelete,
  useGetOne,
  useListContext,
  useNotify,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { Box, Card, CardContent, CircularProgress, IconButton, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import PlayIcon from '@mui/icons-material/PlayCircleOutline';
import AddIcon from '@mui/icons-material/Add';
import { toast } from 'react-hot-toast';
import { BG_PAGE_SIZE, type BackgroundItem } from '../contract/backgrounds';
import { Pagination } from '../common/Pagination';
import { Lightbox } from './Lightbox';

/** /photos/{id}: 'Background ({total})', a 'Create' link to the upload page, and the paged grid of items. */
export const FolderPage = () => {
  const { id } = useParams<{ id: string }>();
  return (
    <ListBase resource={`photo-bg/${id}`} perPage={BG_PAGE_SIZE} storeKey={false}>
      <FolderView folderId={id!} />
    </ListBase>
  );
};

const FolderView = ({ folderId }: { folderId: string }) => {
  const translate = useTranslate();
  const { total, data, isPending } = useListContext<BackgroundItem>();
  const { data: folder } = useGetOne('photos', { id: folderId });
  const title = translate('kadr.backgrounds.folder_title', { total: total ?? 0 });
  const images = (data ?? []).filter((i) => i.type === 'image');
  const [shown, setShown] = useState<number | null>(null);
  return (
    <Box sx={{ mt: 1 }}>
      <Title title={title} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        {folder?.name ? (
          <Typography variant="h6" component="p">
            {folder.name}
          </Typography>
        ) : null}
        <Box sx={{ flex: 1 }} />
        <Button component={Link} to={`/photos/create/${folderId}`} label="kadr.backgrounds.create" variant="contained">
          <AddIcon />
        </Button>
      </Box>
      <Card>
        <CardContent>
          {isPending ? (
            <CircularProgress size={24} />
          ) : !data?.length ? (
            <Typography color="text.secondary">{translate('kadr.backgrounds.empty')}</Typography>
          ) : (
            <Box
              component="ul"
              aria-label={title}
              sx={{
                listStyle: 'none',
                p: 0,
                m: 0,
                display: 'grid',
                gap: 1.5,
                gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))',
              }}
            >
              {data.map((item) => (
                <Tile key={item.id} item={item} onOpen={() => setShown(images.indexOf(item))} />
              ))}
            </Box>
          )}
          <Pagination />
        </CardContent>
      </Card>
      <Lightbox images={images} index={shown} onChange={setShown} />
    </Box>
  );
};

/** A vertical tile on a dark ground: a wide picture or clip is letterboxed whole, never cropped. */
const tileSx = {
  position: 'relative',
  aspectRatio: '9 / 16',
  bgcolor: 'grey.900',
  color: 'grey.300',
  borderRadius: 1,
  overflow: 'hidden',
} as const;
const imgSx = { width: '100%', height: '100%', objectFit: 'contain', display: 'block' } as const;

const Tile = ({ item, onOpen }: { item: BackgroundItem; onOpen: () => void }) => {
  const translate = useTranslate();
  return (
    <Box component="li" sx={tileSx} data-type={item.type}>
      {item.type === 'video' ? (
        <VideoPreview item={item} />
      ) : (
        <Box
          component="button"
          type="button"
          onClick={onOpen}
          aria-label={`${translate('kadr.look.open_image')}: ${item.name}`}
          sx={{ all: 'unset', display: 'block', width: '100%', height: '100%', cursor: 'zoom-in' }}
        >
          <Box component="img" src={item.previewUrl ?? item.url} alt={item.name} loading="lazy" sx={imgSx} />
        </Box>
      )}
      <DeleteItem item={item} />
    </Box>
  );
};

/** A video shows the frame grabbed at 0.1 s; it links to the file in a new tab. */
const VideoPreview = ({ item }: { item: BackgroundItem }) => {
  const translate = useTranslate();
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(!item.previewUrl);
  return (
    <a
      href={item.url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`${translate('kadr.backgrounds.open_video')}: ${item.name}`}
    >
      {!loaded && (
        <Box
          sx={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            p: 1,
            textAlign: 'center',
          }}
        >
          <Typography variant="caption">
            {failed ? item.name : translate('kadr.backgrounds.preview_loading')}
          </Typography>
        </Box>
      )}
      {!failed && (
        <Box
          component="img"
          src={item.previewUrl!}
          alt={item.name}
          loading="lazy"
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
          sx={{ ...imgSx, visibility: loaded ? 'visible' : 'hidden' }}
        />
      )}
      {(loaded || failed) && (
        <PlayIcon
          sx={{ position: 'absolute', left: 8, bottom: 8, color: 'common.white', filter: 'drop-shadow(0 0 2px #000)' }}
        />
      )}
    </a>
  );
};

/**
 * Asks first (a deleted file cannot be brought back), then SPEC §8: 'Видалення ...', then 'Зображення видалено';
 * a failure is an error-style toast (the original used a success style).
 */
const DeleteItem = ({ item }: { item: BackgroundItem }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [remove, { isPending }] = useDelete();
  const [asking, setAsking] = useState(false);
  const onConfirm = () => {
    setAsking(false);
    const id = toast.loading(translate('kadr.notifications.deleting'));
    remove(
      'photo-bg',
      { id: item.id, previousData: item },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          toast.dismiss(id);
          notify('kadr.backgrounds.image_deleted', { type: 'success' });
          refresh();
        },
        onError: () => {
          toast.dismiss(id);
          notify('kadr.notifications.delete_failed', { type: 'error' });
        },
      },
    );
  };
  return (
    <>
      <IconButton
        size="small"
        onClick={() => setAsking(true)}
        disabled={isPending}
        aria-label={`${translate('ra.action.delete')}: ${item.name}`}
        sx={{
          position: 'absolute',
          top: 4,
          right: 4,
          // A light disc on the picture, its icon dark on it in either theme.
          color: 'grey.900',
          bgcolor: 'rgba(255,255,255,0.85)',
          '&:hover': { bgcolor: 'common.white' },
        }}
      >
        <DeleteIcon fontSize="small" />
      </IconButton>
      <Confirm
        isOpen={asking}
        title="kadr.backgrounds.delete_item_title"
        titleTranslateOptions={{ name: item.name }}
        content="kadr.common.confirm_delete_content"
        onConfirm={onConfirm}
        onClose={() => setAsking(false)}
      />
    </>
  );
};
