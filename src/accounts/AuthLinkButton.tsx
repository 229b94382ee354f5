import LinkIcon from '@mui/icons-material/Link';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate, type Identifier } from 'react-admin';
import type { PlatformKey } from '../contract/platforms';
import { errorMessages } from '../common/errorMessages';
import { copyText } from '../common/copyText';
import type { KadrDataProvider } from '../providers/dataProvider';

/**
 * Asks the server for an authorization link and copies it to the clipboard (SPEC §8):
 * 'Посилання скопійоване в буфер обміну', or the response message, else 'Помилка при копіюванні посилання'.
 * When the browser refuses to copy, the link is also shown in a dialog to copy by hand.
 */
export const AuthLinkButton = ({ platform, id, label }: { platform: PlatformKey; id: Identifier; label: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const [manual, setManual] = useState<string | null>(null);
  const link = useMutation({
    mutationFn: () => dataProvider.connectLink(platform, id),
    onSuccess: async ({ url }) => {
      if (await copyText(url)) {
        notify('kadr.notifications.link_copied', { type: 'success' });
      } else {
        notify('kadr.notifications.link_copy_failed', { type: 'error' });
        setManual(url);
      }
    },
    onError: (e) => {
      for (const m of errorMessages(e, translate('kadr.notifications.link_copy_failed'))) notify(m, { type: 'error' });
    },
  });
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<LinkIcon />}
        onClick={() => link.mutate()}
        disabled={link.isPending}
        sx={{ alignSelf: 'flex-start' }}
      >
        {label}
      </Button>
      <Dialog open={manual !== null} onClose={() => setManual(null)} fullWidth maxWidth="sm">
        <DialogTitle>{translate('kadr.accounts.copy_link_by_hand')}</DialogTitle>
        <DialogContent>
          <TextField
            value={manual ?? ''}
            fullWidth
            multiline
            autoFocus
            slotProps={{
              htmlInput: { readOnly: true, onFocus: (e: React.FocusEvent<HTMLTextAreaElement>) => e.target.select() },
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setManual(null)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
};
