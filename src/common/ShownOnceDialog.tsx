import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { copyText } from './copyText';

/**
 * A secret shown this once (a new API key, a webhook's signing secret): the value to select or copy, a warning
 * that it will not be shown again, and Done, which forgets it. `note` (already translated) says what else to know
 * (a rotated webhook secret: until when the old one stays valid).
 */
export const ShownOnceDialog = ({
  title,
  warning,
  value,
  note,
  onClose,
}: {
  title: string;
  warning: string;
  value: string | null;
  note?: string;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    if (value && (await copyText(value))) notify('kadr.api_keys.copied', { type: 'success' });
  };
  return (
    <Dialog open={value !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{translate(title)}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate(warning)}
        </Alert>
        <TextField
          value={value ?? ''}
          fullWidth
          slotProps={{
            htmlInput: {
              readOnly: true,
              'data-testid': 'shown-once',
              onFocus: (e: { target: HTMLInputElement }) => e.target.select(),
            },
          }}
        />
        {note && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {note}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {translate('kadr.api_keys.copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {translate('kadr.api_keys.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
