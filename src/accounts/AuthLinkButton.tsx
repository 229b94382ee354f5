import LinkIcon from '@mui/icons-material/Link';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { errorMessages, httpClient } from '../providers/httpClient';

/**
 * Asks the server for an authorization link and copies it to the clipboard (SPEC §8):
 * 'Посилання скопійоване в буфер обміну', or the response message, else 'Помилка при копіюванні посилання'.
 */
export const AuthLinkButton = ({ path, label }: { path: string; label: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const { json } = await httpClient(path, { method: 'POST' });
      await navigator.clipboard.writeText(json.url);
      notify('kadr.notifications.link_copied', { type: 'success' });
    } catch (e) {
      for (const m of errorMessages(e instanceof DOMException ? undefined : e, translate('kadr.notifications.link_copy_failed'))) notify(m, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" variant="outlined" startIcon={<LinkIcon />} onClick={onClick} disabled={busy} sx={{ alignSelf: 'flex-start' }}>
      {label}
    </Button>
  );
};
