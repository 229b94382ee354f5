import AutorenewIcon from '@mui/icons-material/Autorenew';
import DeleteIcon from '@mui/icons-material/Delete';
import SendIcon from '@mui/icons-material/Send';
import {
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_SECRET_GRACE_MS,
  type Webhook,
  type WebhookEvent,
  type WebhookSecretRotated,
} from '../contract/webhooks';
import { errorMessages, fieldErrorsOf } from '../common/errorMessages';
import { ShownOnceDialog } from '../common/ShownOnceDialog';
import { useFormatUtc } from '../common/useFormatUtc';
import type { KadrDataProvider } from '../providers/dataProvider';
import { WebhookLog } from './WebhookLog';

const QUERY_KEY = ['webhooks'];

/**
 * Settings → Webhooks: register a URL for events (the signing secret shown once), switch one off, send a test,
 * read its delivery log, rotate its secret (the new one shown once, the old one valid for a grace period), delete
 * it. A user's webhooks hear their own rows' events; an admin sees every webhook.
 */
export const WebhooksCard = () => {
  const translate = useTranslate();
  const formatUtc = useFormatUtc();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<KadrDataProvider>();
  const queryClient = useQueryClient();
  const { data: hooks } = useQuery({ queryKey: QUERY_KEY, queryFn: ({ signal }) => dataProvider.webhooks(signal) });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['post.failed']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [rotated, setRotated] = useState<WebhookSecretRotated | null>(null);
  const fail = (e: unknown) => {
    for (const m of errorMessages(e, translate('kadr.notifications.error'))) notify(m, { type: 'error' });
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: QUERY_KEY });

  const create = useMutation({
    mutationFn: () => dataProvider.createWebhook({ url, events }),
    onSuccess: (created) => {
      setSecret(created.secret);
      setUrl('');
      setErrors({});
      void refresh();
    },
    onError: (e) => {
      const fields = fieldErrorsOf(e);
      if (fields) return setErrors(fields);
      fail(e);
    },
  });
  const toggle = useMutation({
    mutationFn: (w: Webhook) => dataProvider.updateWebhook(w.id, { enabled: !w.enabled }),
    onSuccess: () => void refresh(),
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: number) => dataProvider.deleteWebhook(id),
    onSuccess: () => {
      notify('kadr.webhooks.deleted', { type: 'success' });
      void refresh();
    },
    onError: fail,
  });
  const rotate = useMutation({
    mutationFn: (id: number) => dataProvider.rotateWebhookSecret(id),
    onSuccess: (r) => {
      setRotated(r);
      void refresh();
    },
    onError: fail,
  });
  const test = useMutation({
    mutationFn: (id: number) => dataProvider.testWebhook(id),
    onSuccess: (d, id) => {
      if (d.ok) notify('kadr.webhooks.test_ok', { type: 'success', messageArgs: { status: d.responseStatus ?? '' } });
      else
        notify('kadr.webhooks.test_failed', {
          type: 'error',
          messageArgs: { reason: d.responseStatus ?? d.error ?? '' },
        });
      void queryClient.invalidateQueries({ queryKey: ['webhookDeliveries', id] });
      setOpen(id);
    },
    onError: fail,
  });
  const eventsError = errors.events ?? Object.entries(errors).find(([k]) => k.startsWith('events.'))?.[1];

  return (
    <Card sx={{ mt: 2 }} data-testid="webhooks">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('kadr.webhooks.section')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('kadr.webhooks.hint')}
        </Typography>
        <Box
          component="form"
          sx={{ my: 2 }}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <TextField
            label={translate('kadr.webhooks.url')}
            name="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={Boolean(errors.url)}
            helperText={errors.url ?? ' '}
            fullWidth
            size="small"
            placeholder="https://"
          />
          <FormControl error={Boolean(eventsError)} component="fieldset" sx={{ my: 1 }}>
            <FormLabel component="legend">{translate('kadr.webhooks.events')}</FormLabel>
            <FormGroup row>
              {WEBHOOK_EVENTS.map((ev) => (
                <FormControlLabel
                  key={ev}
                  control={
                    <Checkbox
                      checked={events.includes(ev)}
                      onChange={(e) =>
                        setEvents((cur) => (e.target.checked ? [...cur, ev] : cur.filter((x) => x !== ev)))
                      }
                    />
                  }
                  label={translate(`kadr.webhooks.event.${ev}`)}
                />
              ))}
            </FormGroup>
            {eventsError && <FormHelperText>{eventsError}</FormHelperText>}
          </FormControl>
          <Box>
            <Button type="submit" variant="contained" disabled={create.isPending}>
              {translate('kadr.webhooks.create')}
            </Button>
          </Box>
        </Box>
        {hooks && hooks.length === 0 && (
          <Typography color="text.secondary">{translate('kadr.webhooks.empty')}</Typography>
        )}
        {hooks?.map((w) => (
          <Box key={w.id} sx={{ borderTop: 1, borderColor: 'divider', py: 1 }} data-testid={`webhook-${w.id}`}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1, minWidth: 200 }}>
                {w.url}
              </Typography>
              <FormControlLabel
                control={<Switch checked={w.enabled} onChange={() => toggle.mutate(w)} />}
                label={translate('kadr.webhooks.enabled')}
              />
              <Button size="small" startIcon={<SendIcon />} onClick={() => test.mutate(w.id)} disabled={test.isPending}>
                {translate('kadr.webhooks.send_test')}
              </Button>
              <Button size="small" onClick={() => setOpen(open === w.id ? null : w.id)}>
                {translate(open === w.id ? 'kadr.webhooks.hide_log' : 'kadr.webhooks.log')}
              </Button>
              <Button
                size="small"
                startIcon={<AutorenewIcon />}
                onClick={() => setRotating(w)}
                disabled={rotate.isPending}
              >
                {translate('kadr.webhooks.rotate')}
              </Button>
              <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setDeleting(w)}>
                {translate('kadr.webhooks.delete')}
              </Button>
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {w.events.map((ev) => translate(`kadr.webhooks.event.${ev}`, { _: ev })).join(', ')}
              {identity &&
                w.user.id !== Number(identity.id) &&
                ` · ${translate('kadr.webhooks.owner')}: ${w.user.login}`}
            </Typography>
            {w.previousSecretValidUntil && (
              <Typography variant="body2" color="warning.main">
                {translate('kadr.webhooks.old_secret_until', { at: formatUtc(w.previousSecretValidUntil) })}
              </Typography>
            )}
            {open === w.id && <WebhookLog id={w.id} />}
          </Box>
        ))}
      </CardContent>
      <ShownOnceDialog
        title="kadr.webhooks.created_title"
        warning="kadr.webhooks.secret_once"
        value={secret}
        onClose={() => setSecret(null)}
      />
      <ShownOnceDialog
        title="kadr.webhooks.rotated_title"
        warning="kadr.webhooks.rotated_secret_once"
        value={rotated?.secret ?? null}
        note={
          rotated
            ? translate('kadr.webhooks.rotated_note', { at: formatUtc(rotated.previousSecretValidUntil) })
            : undefined
        }
        onClose={() => setRotated(null)}
      />
      <Confirm
        isOpen={rotating !== null}
        title="kadr.webhooks.rotate"
        content="kadr.webhooks.rotate_confirm"
        contentTranslateOptions={{ url: rotating?.url ?? '', hours: WEBHOOK_SECRET_GRACE_MS / 3600_000 }}
        confirm="kadr.webhooks.rotate"
        onConfirm={() => {
          if (rotating) rotate.mutate(rotating.id);
          setRotating(null);
        }}
        onClose={() => setRotating(null)}
      />
      <Confirm
        isOpen={deleting !== null}
        title="kadr.webhooks.delete"
        content="kadr.webhooks.delete_confirm"
        contentTranslateOptions={{ url: deleting?.url ?? '' }}
        confirm="kadr.webhooks.delete"
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
};
